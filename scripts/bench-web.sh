#!/usr/bin/env bash
# The picker server's web targets in one run, side by side (Benchmarks/web/bench_web.py):
#   - the first screen of All Photos at 100,000 assets in headless Chromium (desktop 1280x900,
#     phone 390x844 at 3x), ms until every visible cell shows an image, ours cold (new server,
#     empty rendition cache) and warm (new browser, same server) against the same thumbnails as
#     static files behind nginx in the same boxes: targets cold <= 2.0x, warm <= 1.0x that floor;
#     on five libraries whose newest 120 are 12-MP JPEGs with and without EXIF thumbnails, HEIC,
#     or a mix (made once, kept in $TMPDIR/assets-picker-bench-web);
#   - warm 256x256 thumbnails over HTTP, wrk against assets-picker and against nginx serving the
#     same rendered bytes from disk: target >= 0.9x nginx's requests per second.
# Usage:
#   scripts/bench-web.sh                         # builds the release binaries first
#   scripts/bench-web.sh --binary PATH [--json] [--libraries mix,heic] [--screens desktop]
#                        [--runs 3] [--duration 10s] [--skip-browser|--skip-http]
# Run it under the CPU lock on a shared machine: flock /tmp/assets-picker-cpu.lock scripts/bench-web.sh
# Installs what is missing from Debian (nginx, wrk, libheif-examples, chromium, chromium-driver) and selenium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

binary=""
arguments=()
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=$2; shift 2 ;;
    --binary=*) binary=${1#--binary=}; shift ;;
    *) arguments+=("$1"); shift ;;
  esac
done

missing=()
for package in nginx wrk libheif-examples; do  # libheif-examples: heif-enc makes the HEIC library
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  # nginx is only run by this script, on its own configuration: keep Debian's from starting one.
  DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
scripts/install-e2e-dependencies.sh >&2

if [ -z "$binary" ]; then
  swift build -c release --product assets-picker >&2
  swift build -c release --product assets-picker-bench >&2  # makes the first screen's 12-MP photos
  binary="$(swift build -c release --show-bin-path)/assets-picker"
fi
[ -x "$binary" ] || { echo "bench-web.sh: $binary is not an executable" >&2; exit 2; }

export SE_OFFLINE=true
exec python3 Benchmarks/web/bench_web.py --binary "$binary" ${arguments[@]+"${arguments[@]}"}
