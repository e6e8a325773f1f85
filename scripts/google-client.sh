#!/usr/bin/env bash
# Clients written only from Google's public Photos Picker API reference, run against this server:
#   scripts/google-client.sh PATH-TO-assets-picker [python|go]
# For each client (Python, Tests/GooglePickerClient/google_picker_client.py; and Go,
# Tests/GooglePickerClient/go, when `go` is installed, e.g. Debian's golang-go), starts
# `assets-picker serve` on a fresh demo library (scripts/lib/demo-server.sh, as scripts/e2e.sh
# does), runs the client against its `/v1` with the client key as the bearer token while headless
# Chromium picks as the signed-in person, and stops the server whatever happens. On failure the
# server's log goes to test-artifacts/google-client. scripts/install-e2e-dependencies.sh installs
# chromium, chromedriver and selenium.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -x "$1" ]; then
  echo "usage: scripts/google-client.sh PATH-TO-assets-picker [python|go]" >&2
  exit 2
fi
binary=$(realpath "$1")
artifacts=test-artifacts/google-client
if [ $# -eq 1 ]; then
  # Each client against a server of its own (a sign-in link works once).
  rm -rf "$artifacts"
  "$0" "$binary" python
  if command -v go >/dev/null; then
    "$0" "$binary" go
  else
    echo "google-client: go is not installed (Debian: golang-go); the Go client is skipped"
  fi
  exit 0
fi
client=$2
mkdir -p "$artifacts"

# shellcheck source=lib/demo-server.sh
. scripts/lib/demo-server.sh
start_demo_server "$binary"

status=0
case $client in
  python)
    SE_OFFLINE=true python3 Tests/GooglePickerClient/google_picker_client.py --base "$base" --key "$client_key" \
      --sign-in "$sign_in" --library "$workdir/demo" || status=$?
    ;;
  go)
    (cd Tests/GooglePickerClient/go && GOFLAGS=-buildvcs=false go build -o "$workdir/go-client" main.go)
    # The token through the environment, never the command line (where `ps` shows it).
    PHOTOS_PICKER_TOKEN="$client_key" "$workdir/go-client" -base "${base%/}/v1" >"$workdir/go.out" 2>&1 &
    go_pid=$!
    picker_uri=""
    for _ in $(seq 300); do  # hang guard: the client prints the pickerUri within a second or two
      picker_uri=$(sed -n 's/^pickerUri: //p' "$workdir/go.out")
      [ -n "$picker_uri" ] || ! kill -0 "$go_pid" 2>/dev/null && break
      sleep 0.2
    done
    if [ -n "$picker_uri" ]; then
      SE_OFFLINE=true python3 Tests/GooglePickerClient/person.py --sign-in "$sign_in" --picker-uri "$picker_uri" || status=$?
    fi
    wait "$go_pid" || status=$?
    cat "$workdir/go.out"
    ;;
  *)
    echo "google-client: the client is python or go, not $client" >&2
    exit 2
    ;;
esac
cp "$workdir/server.log" "$artifacts/server-$client.log"
if [ "$status" -ne 0 ]; then
  echo "google-client: $client FAILED (status $status); the server's log is in $artifacts/server-$client.log" >&2
fi
exit "$status"
