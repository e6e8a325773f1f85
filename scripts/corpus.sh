#!/usr/bin/env bash
# The shared test corpus, found as the tests find it, and a guard that nothing writes into it.
#
#   scripts/corpus.sh root           prints the corpus folder, or fails saying where it looked
#   scripts/corpus.sh record FILE    writes a digest of the corpus tree (every entry: kind, mode,
#                                    size, modification time, SHA-256 of files) to FILE
#   scripts/corpus.sh verify FILE    fails, listing the differences, unless the tree still has
#                                    the digest FILE holds
#
# The corpus is $ASSETS_PICKER_TESTDATA when set, else the first shared/testdata beside the
# project or beside one of its parent folders.
set -euo pipefail
project=$(cd "$(dirname "$0")/.." && pwd)

corpus_root() {
  if [ -n "${ASSETS_PICKER_TESTDATA:-}" ]; then
    [ -d "$ASSETS_PICKER_TESTDATA" ] || { echo "corpus: ASSETS_PICKER_TESTDATA=$ASSETS_PICKER_TESTDATA is not a folder" >&2; return 1; }
    (cd "$ASSETS_PICKER_TESTDATA" && pwd)
    return
  fi
  local folder=$project
  while [ "$folder" != "/" ]; do
    folder=$(dirname "$folder")
    if [ -d "$folder/shared/testdata" ]; then (cd "$folder/shared/testdata" && pwd); return; fi
  done
  echo "corpus: no shared/testdata beside $project or any folder above it; set ASSETS_PICKER_TESTDATA to the corpus folder" >&2
  return 1
}

digest() {
  local root=$1
  (cd "$root" && find . -printf '%y %m %s %T@ %p\n' | LC_ALL=C sort -k5 &&
    find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
}

case "${1:-}" in
  root) corpus_root ;;
  record)
    [ $# -eq 2 ] || { echo "usage: $0 record FILE" >&2; exit 2; }
    root=$(corpus_root)
    mkdir -p "$(dirname "$2")"
    { echo "$root"; digest "$root"; } >"$2"
    ;;
  verify)
    [ $# -eq 2 ] || { echo "usage: $0 verify FILE" >&2; exit 2; }
    root=$(head -n 1 "$2")
    if ! differences=$(diff <(tail -n +2 "$2") <(digest "$root")); then
      echo "corpus: $root was changed by the run (it must only be read):" >&2
      echo "$differences" | head -n 40 >&2
      exit 1
    fi
    echo "corpus: $root unchanged"
    ;;
  *) echo "usage: $0 root | record FILE | verify FILE" >&2; exit 2 ;;
esac
