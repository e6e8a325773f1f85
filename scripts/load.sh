#!/usr/bin/env bash
# Load test of the picker server: wrk for 60 s at 64 connections on a mix of picker API reads
# (session, albums, windows of the camera roll) and thumbnails (four sizes, fill and fit, every
# asset: cold renders first, then warm ones), against a release build over a fresh demo library.
# Reports requests/s, p50/p99 latency, the servers' CPU time per request, the count of 5xx
# answers and of socket errors (both must be 0) and the peak RSS (VmHWM) of the busiest server.
#   --servers 1 (default): one server alone, its index in SQLite, reached directly.
#   --servers N (N >= 2): N servers sharing one PostgreSQL database (index, sessions, picks,
#     sign-ins; started by the script in a temporary folder), each with a cache folder of its
#     own, behind nginx round-robining over them at one address; the person signs in once.
#   --compare: one server alone on SQLite, one alone on PostgreSQL, then two behind nginx, in one
#     run, with each one's ratio to the first.
# Run it under the shared CPU lock:
#   flock /tmp/assets-picker-cpu.lock scripts/load.sh [--binary PATH] [--duration 60s] [--connections 64] [--servers N | --compare]
# Installs wrk from Debian when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin:/usr/sbin"

binary="" duration="60s" connections=64 threads=2 servers=1 compare=false database=""
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --servers) servers=$2; shift 2 ;;
    --compare) compare=true; shift ;;
    --postgres) database=postgres; shift ;;   # one server with its index in PostgreSQL (--compare's second run)
    *) echo "load.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ "$servers" -ge 1 ] 2>/dev/null || { echo "load.sh: --servers wants a number of at least 1" >&2; exit 2; }
[ "$servers" -eq 1 ] || database=postgres

if ! command -v wrk >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk >/dev/null
fi
if [ -z "$binary" ]; then
  swift build -c release --product assets-picker >&2
  binary="$(swift build -c release --show-bin-path)/assets-picker"
fi

if $compare; then
  common=(--binary "$binary" --duration "$duration" --connections "$connections")
  one=$("$0" "${common[@]}") || exit 1
  echo "one server, SQLite:              $one"
  postgres=$("$0" "${common[@]}" --postgres) || exit 1
  echo "one server, PostgreSQL:          $postgres"
  two=$("$0" "${common[@]}" --servers 2) || exit 1
  echo "two servers behind nginx:        $two"
  python3 - "$one" "$postgres" "$two" <<'PY'
import sys
runs = [dict(field.split("=") for field in line.split()[1:]) for line in sys.argv[1:]]
base = runs[0]
for name, run in zip(["PostgreSQL, one server", "two servers behind nginx"], runs[1:]):
    print(f"ratio to one server on SQLite, {name}: req/s {float(run['rps']) / float(base['rps']):.2f}x, "
          f"CPU/request {float(run['cpu_ms_per_request']) / float(base['cpu_ms_per_request']):.2f}x, "
          f"p99 {float(run['p99_ms']) / float(base['p99_ms']):.2f}x")
PY
  exit 0
fi

scratch=$(mktemp -d)
chmod 755 "$scratch"   # PostgreSQL's user (as root) reaches its folder inside
pids=()
# shellcheck source=lib/postgres-server.sh
. scripts/lib/postgres-server.sh
# shellcheck source=lib/nginx-front.sh
. scripts/lib/nginx-front.sh
cleanup() {
  stop_nginx_front
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
  for pid in ${pids[@]+"${pids[@]}"}; do wait "$pid" 2>/dev/null || true; done
  stop_postgres_server
  rm -rf "$scratch"
}
trap cleanup EXIT
# The demo library, its index and the renditions in the run's own folder: cold, and never the user's.
export ASSETS_PICKER_DEMO_LIBRARY="$scratch/demo"
if [ "$database" = postgres ]; then
  start_postgres_server "$scratch/postgres"
  # The demo library is made on first use; then indexed into the database, as the servers will find it.
  XDG_DATA_HOME="$scratch/index-data" XDG_CACHE_HOME="$scratch/index-cache" "$binary" albums --backend folder --json >/dev/null
  XDG_DATA_HOME="$scratch/index-data" XDG_CACHE_HOME="$scratch/index-cache" "$binary" index "$ASSETS_PICKER_DEMO_LIBRARY" --json >/dev/null
else
  unset ASSETS_PICKER_DATABASE_URL
fi
ASSETS_PICKER_CLIENT_KEY=$(head -c 24 /dev/urandom | base64 | tr '+/' '-_')
export ASSETS_PICKER_CLIENT_KEY
front_port=""
public=()
if [ "$servers" -gt 1 ]; then
  front_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  public=(--public-url "http://127.0.0.1:$front_port/" --trusted-proxy 127.0.0.1)
fi
for index in $(seq 1 "$servers"); do
  XDG_DATA_HOME="$scratch/server-$index/data" XDG_CACHE_HOME="$scratch/server-$index/cache" \
    "$binary" serve --port 0 --json --no-watch --log-level error ${public[@]+"${public[@]}"} > "$scratch/announce-$index" &
  pids+=($!)
done
ports=()
for index in $(seq 1 "$servers"); do
  for _ in $(seq 600); do [ -s "$scratch/announce-$index" ] && break; sleep 0.1; done
  [ -s "$scratch/announce-$index" ] || { echo "load.sh: server $index did not start" >&2; exit 1; }
  ports+=("$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["port"])' "$scratch/announce-$index")")
done
if [ "$servers" -gt 1 ]; then
  start_nginx_front "$scratch/nginx" "$front_port" "${ports[@]}"
  base="http://127.0.0.1:$front_port"
else
  base="http://127.0.0.1:${ports[0]}"
fi
read -r picker signin < <(python3 -c 'import json,sys,urllib.parse; a=json.loads(open(sys.argv[1]).readline()); print(urllib.parse.urlparse(a["pickerUri"]).path, urllib.parse.urlparse(a.get("signInUrl", "-")).path + "?" + urllib.parse.urlparse(a.get("signInUrl", "-")).query)' "$scratch/announce-1")
# The person signs in through the one-time link the first server printed (through nginx when it
# is in front: any server takes it): the picker needs its cookie.
cookie=$(curl -sS -o /dev/null -D - "$base$signin" | awk -F'[ ;]' 'tolower($1) == "set-cookie:" {print $2}' | tr -d '\r')
[ -n "$cookie" ] || { echo "load.sh: the sign-in link gave no cookie" >&2; exit 1; }
export COOKIE="$cookie"

# The mix: for every asset, its thumbnails at four sizes in both modes; between them, API reads.
curl -fsS -H "Cookie: $cookie" "$base${picker}api/albums/smart%3Aall/assets?limit=500" > "$scratch/window" 2>/dev/null \
  || curl -fsS -H "Cookie: $cookie" "$base${picker}api/albums/camera-roll/assets?limit=500" > "$scratch/window"
python3 - "$scratch/window" "$picker" > "$scratch/paths" <<'PY'
import json, sys
items = json.load(open(sys.argv[1]))["items"]
api = sys.argv[2] + "api/"
reads = ["session", "albums", "albums/smart%3Aall/assets?limit=120", "albums/smart%3Aall/assets?offset=10&limit=60"]
lines = []
for size in (128, 192, 256, 320):
    for mode in ("fill", "fit"):
        for index, item in enumerate(items):
            lines.append(f"{api}assets/{item['id']}/image?w={size}&h={size}&mode={mode}&delivery=high")
            if index % 4 == 0:
                lines.append(api + reads[(index // 4) % len(reads)])
print("\n".join(lines))
PY
echo "load.sh: $servers server(s)${front_port:+ behind nginx}, index in ${database:-SQLite}: $(wc -l < "$scratch/paths") paths over $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["items"]))' "$scratch/window") assets; wrk -t$threads -c$connections -d$duration" >&2

# The servers' CPU time (user + system, in clock ticks) before and after: CPU per request.
cpu_ticks() { local total=0 pid; for pid in "${pids[@]}"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done; echo "$total"; }
before=$(cpu_ticks)
PATHS_FILE="$scratch/paths" wrk -t"$threads" -c"$connections" -d"$duration" --timeout 10s --latency \
  -s scripts/load/mixed.lua "$base" > "$scratch/wrk" || true
after=$(cpu_ticks)
result=$(grep '^RESULT' "$scratch/wrk" || true)
[ -n "$result" ] || { cat "$scratch/wrk" >&2; echo "load.sh: wrk gave no result" >&2; exit 1; }
peak=0
for pid in "${pids[@]}"; do rss=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status"); [ "$rss" -gt "$peak" ] && peak=$rss; done
requests=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$result")
cpu=$(python3 -c 'import sys; ticks, hz, requests = int(sys.argv[2]) - int(sys.argv[1]), int(sys.argv[3]), max(1, int(sys.argv[4])); print("%.3f" % (ticks * 1000 / hz / requests))' "$before" "$after" "$(getconf CLK_TCK)" "$requests")
echo "$result cpu_ms_per_request=$cpu peak_rss_mb=$((peak / 1024))"
errors=$(sed -E 's/.*server_errors=([0-9]+).*/\1/' <<<"$result")
sockets=$(sed -E 's/.*socket_errors=([0-9]+).*/\1/' <<<"$result")
[ "$errors" -eq 0 ] || { echo "load.sh: $errors answers were 5xx" >&2; exit 1; }
[ "$sockets" -eq 0 ] || { echo "load.sh: $sockets socket errors" >&2; exit 1; }
