#!/usr/bin/env bash
# Load test of the picker server: wrk for 60 s at 64 connections on a mix of picker API reads
# (session, albums, windows of the camera roll) and thumbnails (four sizes, fill and fit, every
# asset: cold renders first, then warm ones), against a release build over a fresh demo library.
# Reports requests/s, p50/p99 latency, the count of 5xx answers (must be 0) and the server's
# peak RSS (VmHWM). Run it under the shared CPU lock:
#   flock /tmp/assets-picker-cpu.lock scripts/load.sh [--binary PATH] [--duration 60s] [--connections 64]
# Installs wrk from Debian when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

binary="" duration="60s" connections=64 threads=2
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    *) echo "load.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

if ! command -v wrk >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk >/dev/null
fi
if [ -z "$binary" ]; then
  swift build -c release --product assets-picker >&2
  binary="$(swift build -c release --show-bin-path)/assets-picker"
fi

scratch=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; rm -rf "$scratch"; }
trap cleanup EXIT
# The demo library, its index and the renditions in the run's own folder: cold, and never the user's.
export ASSETS_PICKER_DEMO_LIBRARY="$scratch/demo" XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache"
"$binary" serve --port 0 --json --no-watch --log-level error > "$scratch/announce" &
server=$!
for _ in $(seq 600); do [ -s "$scratch/announce" ] && break; sleep 0.1; done
[ -s "$scratch/announce" ] || { echo "load.sh: the server did not start" >&2; exit 1; }
read -r port picker signin < <(python3 -c 'import json,sys,urllib.parse; a=json.loads(open(sys.argv[1]).readline()); print(a["port"], urllib.parse.urlparse(a["pickerUri"]).path, a.get("signInUrl", "-"))' "$scratch/announce")
base="http://127.0.0.1:$port"
# The person signs in through the one-time link the server printed: the picker needs its cookie.
cookie=""
if [ "$signin" != "-" ]; then
  cookie=$(curl -sS -o /dev/null -D - "$signin" | awk -F'[ ;]' 'tolower($1) == "set-cookie:" {print $2}' | tr -d '\r')
fi
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
echo "load.sh: $(wc -l < "$scratch/paths") paths over $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["items"]))' "$scratch/window") assets; wrk -t$threads -c$connections -d$duration" >&2

PATHS_FILE="$scratch/paths" wrk -t"$threads" -c"$connections" -d"$duration" --timeout 10s --latency \
  -s scripts/load/mixed.lua "$base" > "$scratch/wrk" || true
result=$(grep '^RESULT' "$scratch/wrk" || true)
peak=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
[ -n "$result" ] || { cat "$scratch/wrk" >&2; echo "load.sh: wrk gave no result" >&2; exit 1; }
echo "$result peak_rss_mb=$((peak / 1024))"
errors=$(sed -E 's/.*server_errors=([0-9]+).*/\1/' <<<"$result")
[ "$errors" -eq 0 ] || { echo "load.sh: $errors answers were 5xx" >&2; exit 1; }
