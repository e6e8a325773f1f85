#!/usr/bin/env bash
# Issue 30's scale figures: `assets-picker-index-bench --only scale` on a PostgreSQL of its own
# and on SQLite, side by side. A generated index of ASSETS (1,000,000) assets in 2,000 folders
# and 20,000 user albums is written into both, then each read is timed RUNS (21) times through
# the libraries' API (median / p95). PostgreSQL: Debian's, started by scripts/lib/postgres-server.sh
# (`initdb` in a temporary folder, as the `postgres` user when run as root), stopped and removed
# at the end; its settings are that script's but shared_buffers (256MB, a small server's),
# work_mem and synchronous_commit off (generation only writes). To keep a generated library
# between runs, run the benchmark itself with --workdir against a database of your own.
# Usage: flock /tmp/assets-picker-cpu.lock scripts/bench-scale.sh [ASSETS] [RUNS] [ALBUMS]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
assets=${1:-1000000}
runs=${2:-21}
albums=${3:-20000}

swift build -c release --product assets-picker-index-bench >&2
bench="$(swift build -c release --show-bin-path)/assets-picker-index-bench"

# shellcheck source=lib/postgres-server.sh
. scripts/lib/postgres-server.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/assets-picker-bench-scale.XXXXXX")
chmod 755 "$work"   # PostgreSQL's user (as root) reaches its folder inside
trap 'stop_postgres_server; rm -rf "$work"' EXIT
postgres_settings=(-c shared_buffers=256MB -c work_mem=16MB -c synchronous_commit=off -c max_wal_size=2GB)
start_postgres_server "$work/postgres"

# The benchmark reads the database from ASSETS_PICKER_DATABASE_URL (password included), which
# start_postgres_server exported.
TMPDIR="$work" "$bench" --only scale --assets "$assets" --albums "$albums" --runs "$runs"
