#!/usr/bin/env bash
# The end-to-end test of the picker in a real headless Chromium:
#   scripts/e2e.sh PATH-TO-assets-picker [--readme-screenshot]
# Starts `assets-picker serve` on a fresh demo library (in a temporary folder, with its own empty
# rendition cache) on a free loopback port, runs Tests/E2E/picker_e2e.py against it and stops the
# server whatever happens. Screenshots and, on failure, the server's log go to test-artifacts/e2e.
# scripts/install-e2e-dependencies.sh installs chromium, chromedriver and selenium.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: scripts/e2e.sh PATH-TO-assets-picker [--readme-screenshot]" >&2
  exit 2
fi
binary=$(realpath "$1")
shift

artifacts=test-artifacts/e2e
rm -rf "$artifacts" && mkdir -p "$artifacts"  # only this run's screenshots and logs
workdir=$(mktemp -d "${TMPDIR:-/tmp}/assets-picker-e2e.XXXXXX")
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

client_key=$(python3 -c "import secrets; print(secrets.token_hex(24))")
# The key goes through the environment, never the command line (where `ps` shows it).
ASSETS_PICKER_CLIENT_KEY="$client_key" ASSETS_PICKER_DEMO_LIBRARY="$workdir/demo" XDG_CACHE_HOME="$workdir/cache" \
  XDG_DATA_HOME="$workdir/data" "$binary" serve --port 0 --json >"$workdir/announcement.json" 2>"$workdir/server.log" &
server_pid=$!

# The announcement line appears once the server listens (the demo library is made first).
for _ in $(seq 600); do
  [ -s "$workdir/announcement.json" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "e2e: the server exited before it listened; its log:" >&2
    cat "$workdir/server.log" >&2
    exit 1
  fi
  sleep 0.2
done
if [ ! -s "$workdir/announcement.json" ]; then
  echo "e2e: the server did not announce itself within 120 s; its log:" >&2
  cat "$workdir/server.log" >&2
  exit 1
fi
# The first line is the announcement (later ones are sign-in links made for pages opened signed out).
announced() { python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())[sys.argv[2]])" "$workdir/announcement.json" "$1"; }
base=$(announced url)
sign_in=$(announced signInUrl)
echo "e2e: server at $base (demo library in $workdir/demo)"

status=0
SE_OFFLINE=true python3 Tests/E2E/picker_e2e.py --base "$base" --key "$client_key" --sign-in "$sign_in" --artifacts "$artifacts" "$@" || status=$?
cp "$workdir/server.log" "$artifacts/server.log"
if [ "$status" -ne 0 ]; then
  echo "e2e: FAILED (status $status); the server's log is in $artifacts/server.log" >&2
fi
exit "$status"
