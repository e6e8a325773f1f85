#!/usr/bin/env bash
# Builds the benchmark and the assets-picker command (whose export it times) in release mode
# and runs the benchmark; arguments go to it, e.g.
#   scripts/bench.sh --images 40 --runs 3 --json
#   scripts/bench.sh --runs 1 --no-peak-rss          # a quicker run
#   scripts/bench.sh memory                          # peak RSS of renders of 200-MP originals
# It needs vipsthumbnail, vips, djpeg, convert (ImageMagick) and taskset on PATH:
# scripts/install-dependencies.sh installs them. The corpus is kept in the work folder
# (--workdir, default $TMPDIR/assets-picker-bench) and reused by later runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

for tool in vipsthumbnail vips djpeg convert taskset; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "bench.sh: $tool is missing; run scripts/install-dependencies.sh" >&2
    exit 1
  fi
done

swift build -c release --product assets-picker-bench >&2
swift build -c release --product assets-picker >&2
exec "$(swift build -c release --show-bin-path)/assets-picker-bench" "$@"
