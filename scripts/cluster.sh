#!/usr/bin/env bash
# The many-server setup on one machine, in one command: PostgreSQL (initdb in a temporary folder,
# as the `postgres` user when run as root), moto's S3 server holding the demo library's originals
# in a bucket, the bucket indexed into PostgreSQL, SERVERS `assets-picker serve` processes sharing
# that database (the index, sessions, picks and sign-ins), and nginx round-robining over them at
# one address. Prints the picker's sign-in link and the client key; Ctrl-C stops everything and
# removes the run's folder. Nothing is written outside it.
#   scripts/cluster.sh [--servers N (2)] [--port PORT (8080)] [--binary PATH]
# Installs nothing: `make dependencies` (scripts/install-dependencies.sh) has put PostgreSQL, moto
# and nginx here.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin:$HOME/.local/bin:/usr/sbin"

servers=2 port=8080 binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --servers) servers=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cluster.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ "$servers" -ge 1 ] 2>/dev/null || { echo "cluster.sh: --servers wants a number of at least 1" >&2; exit 2; }
if [ -z "$binary" ]; then
  swift build -c release --product assets-picker >&2
  binary="$(swift build -c release --show-bin-path)/assets-picker"
fi
[ -x "$binary" ] || { echo "cluster.sh: $binary is not an executable" >&2; exit 2; }
if python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()' "$port" 2>/dev/null; then
  echo "cluster.sh: something already listens on port $port; give another with --port N" >&2; exit 2
fi

# shellcheck source=lib/postgres-server.sh
. scripts/lib/postgres-server.sh
# shellcheck source=lib/moto-server.sh
. scripts/lib/moto-server.sh
# shellcheck source=lib/nginx-front.sh
. scripts/lib/nginx-front.sh

run=$(mktemp -d "${TMPDIR:-/tmp}/assets-picker-cluster.XXXXXX")
chmod 755 "$run"   # PostgreSQL's user (as root) reaches its folder inside
server_pids=()
stop_all() {
  stop_nginx_front
  for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${server_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_moto_server
  stop_postgres_server
  # A wait interrupted by the signal that ends the script may return early: the folder goes
  # once nothing of the run is left to write into it.
  for _ in $(seq 1 300); do
    pgrep -f -- "$run" >/dev/null || break
    sleep 0.1
  done
  rm -rf "$run"
}
trap stop_all EXIT
trap 'exit 130' INT TERM
say() { echo "cluster.sh: $*" >&2; }

say "starting PostgreSQL..."
start_postgres_server "$run/postgres"
say "starting moto's S3 server..."
start_moto_server "$run/moto.log"

# The demo library, made on first use in the run's folder, copied into a bucket.
say "making the demo library and copying it into s3://demo/library/..."
ASSETS_PICKER_DEMO_LIBRARY="$run/demo" XDG_DATA_HOME="$run/index-data" XDG_CACHE_HOME="$run/index-cache" \
  "$binary" albums --backend folder --json >/dev/null
python3 - "$run/demo" <<'PY'
import os, sys
import boto3
from botocore.config import Config
s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}))
s3.create_bucket(Bucket="demo")
root = sys.argv[1]
for folder, _, names in os.walk(root):
    for name in names:
        path = os.path.join(folder, name)
        s3.upload_file(path, "demo", "library/" + os.path.relpath(path, root))
PY
library=s3://demo/library
say "indexing $library into PostgreSQL..."
XDG_DATA_HOME="$run/index-data" XDG_CACHE_HOME="$run/index-cache" "$binary" index --library "$library" --json >/dev/null

# One client key for every server: a client program may reach any of them.
ASSETS_PICKER_CLIENT_KEY=$(head -c 24 /dev/urandom | base64 | tr '+/' '-_')
export ASSETS_PICKER_CLIENT_KEY
upstream_ports=()
for index in $(seq 1 "$servers"); do
  # Each server keeps its previews and fetched originals in a folder of its own, as on a machine of its own.
  XDG_DATA_HOME="$run/server-$index/data" XDG_CACHE_HOME="$run/server-$index/cache" \
    "$binary" serve --library "$library" --port 0 --json --public-url "http://127.0.0.1:$port/" --trusted-proxy 127.0.0.1 --log-level warning \
    >"$run/server-$index.out" 2>"$run/server-$index.log" &
  server_pids+=($!)
done
for index in $(seq 1 "$servers"); do
  out="$run/server-$index.out"
  for _ in $(seq 1 600); do [ -s "$out" ] && break; kill -0 "${server_pids[$((index - 1))]}" 2>/dev/null || break; sleep 0.1; done
  [ -s "$out" ] || { say "server $index did not start:"; cat "$run/server-$index.log" >&2; exit 1; }
  upstream_ports+=("$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["port"])' "$out")")
done
start_nginx_front "$run/nginx" "$port" "${upstream_ports[@]}"
signin=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["signInUrl"])' "$run/server-1.out")

cat <<TEXT
AssetsPicker: $servers servers (ports ${upstream_ports[*]}) behind nginx at http://127.0.0.1:$port/,
sharing one PostgreSQL database (port $postgres_port) for the index, sessions, picks and sign-ins,
with the demo library's originals in the bucket $library on moto's S3 server ($AWS_ENDPOINT_URL).

To pick, open this link in a browser (it signs you in; it works once, on any server):

    $signin

Programs: the API is http://127.0.0.1:$port/v1, with the client key
    $ASSETS_PICKER_CLIENT_KEY
sent as 'Authorization: Bearer <key>'.

Logs: $run (servers: server-N.log). Press Ctrl-C to stop everything.
TEXT
wait "${server_pids[@]}"
