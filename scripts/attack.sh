#!/usr/bin/env bash
# Replays issue 12's attacks against a picker server it starts over a copy of the corpus (with a
# link to /, a link out of the library, xcsn0g01.png and damaged files planted), and prints a
# table: probe -> expected -> got -> ok/FAIL. Exit status 1 when any probe failed.
# Probes live in scripts/attack/attack.py, one function each (@probe): add a row by adding one.
# The person signs in through the link the server prints; picker requests carry that cookie.
# Usage:
#   scripts/attack.sh                      # the debug build's binary (built first)
#   scripts/attack.sh --binary PATH [--only 'M7']
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
if [ -z "$binary" ]; then
  swift build --product assets-picker >&2
  binary="$(swift build --show-bin-path)/assets-picker"
fi
[ -x "$binary" ] || { echo "attack.sh: $binary is not an executable" >&2; exit 2; }
corpus=$(scripts/corpus.sh root)
exec python3 scripts/attack/attack.py --binary "$binary" --corpus "$corpus" ${arguments[@]+"${arguments[@]}"}
