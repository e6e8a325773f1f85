#!/usr/bin/env bash
# Checks that the type names the prose documentation puts in code voice still exist, so a
# renamed or removed type cannot stay in the docs: every `UpperCamelCase` name at the start of a
# code span in README.md, docs/*.md and the DocC articles (Sources/*/*.docc/*.md) must appear as a
# word in the sources, tests, scripts or Package.swift. (DocC checks its own ``symbol links``; this
# covers the names it cannot: internal types, other targets' types, plain Markdown.)
# Usage: scripts/doc-names.sh   (exit status 1, naming file and name, when one is missing)
set -euo pipefail
cd "$(dirname "$0")/.."
missing=0
for doc in README.md docs/*.md Sources/*/*.docc/*.md; do
  [ -f "$doc" ] || continue
  names=$(grep -oE '`[^`]+`' "$doc" | tr -d '`' | grep -oE '^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*' | sort -u || true)
  for name in $names; do
    if ! grep -rqw --include='*.swift' --include='*.c' --include='*.h' --include='*.js' --include='*.py' \
        --include='*.sh' --include='Package.swift' -- "$name" Sources Tests scripts Benchmarks Package.swift; then
      echo "$doc: \`$name\` is named nowhere in the code (renamed or removed?)" >&2
      missing=1
    fi
  done
done
exit $missing
