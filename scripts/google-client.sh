#!/usr/bin/env bash
# A client written only from Google's public Photos Picker API reference, run against this server:
#   scripts/google-client.sh PATH-TO-assets-picker
# Starts `assets-picker serve` on a fresh demo library (scripts/lib/demo-server.sh, as
# scripts/e2e.sh does), runs Tests/GooglePickerClient/google_picker_client.py against its `/v1`
# with the client key as the bearer token, while headless Chromium picks as the signed-in person,
# and stops the server whatever happens. On failure the server's log goes to
# test-artifacts/google-client. scripts/install-e2e-dependencies.sh installs chromium,
# chromedriver and selenium.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: scripts/google-client.sh PATH-TO-assets-picker" >&2
  exit 2
fi
binary=$(realpath "$1")
artifacts=test-artifacts/google-client
rm -rf "$artifacts" && mkdir -p "$artifacts"

# shellcheck source=lib/demo-server.sh
. scripts/lib/demo-server.sh
start_demo_server "$binary"

status=0
SE_OFFLINE=true python3 Tests/GooglePickerClient/google_picker_client.py --base "$base" --key "$client_key" \
  --sign-in "$sign_in" --library "$workdir/demo" || status=$?
cp "$workdir/server.log" "$artifacts/server.log"
if [ "$status" -ne 0 ]; then
  echo "google-client: FAILED (status $status); the server's log is in $artifacts/server.log" >&2
fi
exit "$status"
