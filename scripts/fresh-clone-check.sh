#!/usr/bin/env bash
# Does what a new contributor (and CI) does, N times: clone the committed project (the commit
# HEAD names when the check starts, for every run) into a new temporary folder beside a writable
# copy of ../shared, run .ci/run there (install, build, every
# test), and check that the corpus copy was only read. Prints one line per run and a summary;
# fails if any run failed, changed the corpus, or took longer than the limit.
#
#   scripts/fresh-clone-check.sh [N]        (default 1)
#
# Runs one after another (the machine has 2 cores). Each run's log is kept in
# test-artifacts/fresh-clone/run-K.log. FRESH_CLONE_LIMIT (seconds, default 720) is the most
# a run may take once dependencies are installed. The shared folder copied is
# $ASSETS_PICKER_SHARED, else ../shared beside the project.
set -euo pipefail
cd "$(dirname "$0")/.."
project=$(pwd)
runs=${1:-1}
limit=${FRESH_CLONE_LIMIT:-720}
shared=${ASSETS_PICKER_SHARED:-$project/../shared}
[ -d "$shared/testdata" ] || { echo "fresh-clone-check: no testdata in $shared (set ASSETS_PICKER_SHARED)" >&2; exit 2; }
shared=$(cd "$shared" && pwd)
commit=$(git rev-parse HEAD)
logs=$project/test-artifacts/fresh-clone
mkdir -p "$logs"

failures=0
summary=()
for run in $(seq "$runs"); do
  work=$(mktemp -d "${TMPDIR:-/tmp}/assets-picker-fresh.XXXXXX")
  cp -r "$shared" "$work/shared"
  chmod -R u+w "$work/shared"   # writable, as a contributor's own copy is
  git clone --quiet "$project" "$work/main"
  git -C "$work/main" checkout --quiet -B main "$commit"
  ASSETS_PICKER_TESTDATA= ASSETS_PICKER_SHARED= "$work/main/scripts/corpus.sh" record "$work/corpus-before.txt"
  log=$logs/run-$run.log
  start=$(date +%s)
  status=0
  (cd "$work/main" && env -u ASSETS_PICKER_TESTDATA CI=true bash .ci/run) >"$log" 2>&1 </dev/null || status=$?
  seconds=$(( $(date +%s) - start ))
  verdict=passed
  if [ $status -ne 0 ]; then
    verdict="FAILED (exit $status; see $log)"
  elif ! "$work/main/scripts/corpus.sh" verify "$work/corpus-before.txt" >>"$log" 2>&1; then
    verdict="FAILED: the corpus copy changed (see $log)"
  elif [ "$seconds" -gt "$limit" ]; then
    verdict="FAILED: over the limit of ${limit} s"
  fi
  [ "$verdict" = passed ] || failures=$((failures + 1))
  tests=$(grep -Eo 'Test run with [0-9]+ tests' "$log" | tail -n 1 || true)
  line="run $run/$runs  ${commit:0:7}  $(printf '%dm%02ds' $((seconds / 60)) $((seconds % 60)))  $verdict  ${tests#Test run with }"
  echo "$line"
  summary+=("$line")
  rm -rf "$work"
done

echo
printf '%s\n' "${summary[@]}"
echo "$((runs - failures)) of $runs passed"
[ $failures -eq 0 ]
