#!/usr/bin/env bash
# Issue 30's scale figures: `assets-picker-index-bench --only scale` on a PostgreSQL of its own
# and on SQLite, side by side. A generated index of ASSETS (1,000,000) assets in 2,000 folders
# and 20,000 user albums is written into both, then each read is timed RUNS (21) times through
# the libraries' API (median / p95). PostgreSQL: Debian's, `initdb` in a temporary folder, as the
# `postgres` user (else `nobody`) when run as root, listening on a socket in that folder only;
# stopped and removed at the end. Its settings are the defaults but shared_buffers (256MB, a
# small server's), work_mem and synchronous_commit off (generation only writes).
# Usage: flock /tmp/assets-picker-cpu.lock scripts/bench-scale.sh [ASSETS] [RUNS] [ALBUMS]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
assets=${1:-1000000}
runs=${2:-21}
albums=${3:-20000}

swift build -c release --product assets-picker-index-bench >&2
bench="$(swift build -c release --show-bin-path)/assets-picker-index-bench"

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pg_bin/postgres" ] || { echo "bench-scale: PostgreSQL's server is not installed: run make dependencies" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/assets-picker-bench-scale.XXXXXX")
chmod 755 "$work"
run_as=()
if [ "$(id -u)" = 0 ]; then
  owner=postgres
  id "$owner" >/dev/null 2>&1 || owner=nobody
  chown "$owner": "$work"
  run_as=(setpriv --reuid="$(id -u "$owner")" --regid="$(id -g "$owner")" --clear-groups --)
fi
pg_pid=""
stop_postgres() {
  if [ -n "$pg_pid" ]; then
    kill -INT "$pg_pid" 2>/dev/null || true
    wait "$pg_pid" 2>/dev/null || true
    pg_pid=""
  fi
}
trap 'stop_postgres; rm -rf "$work"' EXIT

"${run_as[@]}" "$pg_bin/initdb" -D "$work/data" -U assets --auth-local=trust -E UTF8 --locale=C --no-sync >"$work/initdb.log" 2>&1 \
  || { cat "$work/initdb.log" >&2; exit 1; }
port=5432
"${run_as[@]}" "$pg_bin/postgres" -D "$work/data" -k "$work" -c listen_addresses= -p "$port" \
  -c shared_buffers=256MB -c work_mem=16MB -c synchronous_commit=off -c max_wal_size=2GB >"$work/server.log" 2>&1 &
pg_pid=$!
for _ in $(seq 1 200); do
  grep -q "ready to accept connections" "$work/server.log" 2>/dev/null && [ -S "$work/.s.PGSQL.$port" ] && break
  kill -0 "$pg_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
"$pg_bin/createdb" -h "$work" -p "$port" -U assets scale

TMPDIR="$work" "$bench" --only scale --assets "$assets" --albums "$albums" --runs "$runs" \
  --database "postgresql://assets@/scale?host=$work&port=$port"
