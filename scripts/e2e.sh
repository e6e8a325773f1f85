#!/usr/bin/env bash
# The end-to-end test of the picker in a real headless Chromium:
#   scripts/e2e.sh PATH-TO-assets-picker [--readme-screenshot]
# Starts `assets-picker serve` on a fresh demo library (in a temporary folder, with its own empty
# rendition cache) on a free loopback port, runs Tests/E2E/picker_e2e.py against it and stops the
# server whatever happens; the scroll test (Tests/E2E/e2e_scroll_cancel.py) starts a second server of
# the same binary on a large library of its own, and the album kinds test (Tests/E2E/e2e_album_kinds.py) one
# on each backend (folder, indexed). Screenshots and, on failure, the server's log go to test-artifacts/e2e.
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
# shellcheck source=lib/demo-server.sh
. scripts/lib/demo-server.sh
start_demo_server "$binary"

status=0
SE_OFFLINE=true python3 Tests/E2E/picker_e2e.py --base "$base" --key "$client_key" --sign-in "$sign_in" --binary "$binary" --artifacts "$artifacts" "$@" || status=$?
cp "$workdir/server.log" "$artifacts/server.log"
if [ "$status" -ne 0 ]; then
  echo "e2e: FAILED (status $status); the server's log is in $artifacts/server.log" >&2
fi
exit "$status"
