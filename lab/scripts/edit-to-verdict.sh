#!/usr/bin/env bash
# A student's day 38 edit to its verdict in an existing build: the exercise's
# file (in the submission folder the build grades) changed, its runner
# rebuilt, the day's submission tests run. Timed twice: with the stub (which
# fails fast) and with the instructor solution in its place (a working
# kernel, every case run); the file is put back afterwards. One line each
# with the three times and how the tests went; logs go to OUT_DIR. Exits
# non-zero, saying why, when there is no such build or it fails to rebuild (a
# time of nothing is not a figure).
#
#   lab/scripts/edit-to-verdict.sh BUILD_DIR OUT_DIR [jobs]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
out=$2
jobs=${3:-$(nproc)}
mkdir -p "$out"
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "day 38 edit-to-verdict: no build at $build (run .ci/gpu-suite.sh first)"
  exit 1
fi
# The file the build grades: the submission folder it was configured with.
submission=$(sed -n 's/^GRADING_SUBMISSION_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
exercise="${submission:-$root/exercises}/day38/edge_mapping.cu"
kept="$out/edge_mapping.cu.kept"
cp -p "$exercise" "$kept"
# Put back, and rebuilt, so later tests grade the submission they were built with.
restore() {
  cp -p "$kept" "$exercise" && touch "$exercise"
  cmake --build "$build" --target day38_runner_submission >"$out/edit-build-restore.log" 2>&1
}
trap restore EXIT

edit_to_verdict() {  # log name, label
  touch "$exercise"
  local start mid end tests
  start=$(date +%s.%N)
  if ! cmake --build "$build" --target day38_runner_submission >"$out/edit-build-$1.log" 2>&1; then
    echo "day 38 edit-to-verdict ($2): the rebuild failed (see $out/edit-build-$1.log)"
    return 1
  fi
  mid=$(date +%s.%N)
  ctest --test-dir "$build" -L day38 -L submission -j "$jobs" >"$out/edit-tests-$1.log" 2>&1
  end=$(date +%s.%N)
  tests=$(grep -E 'tests passed|No tests were found' "$out/edit-tests-$1.log" | head -1)
  awk -v l="$2" -v s="$start" -v m="$mid" -v e="$end" -v t="${tests:-no ctest summary}" \
    'BEGIN { printf "day 38 edit-to-verdict (%s): %.1f s (build %.1f s, tests %.1f s; %s)\n", l, e - s, m - s, e - m, t }'
}

cmp -s "$root/exercises/day38/edge_mapping.cu" "$exercise" || cp "$root/exercises/day38/edge_mapping.cu" "$exercise"
edit_to_verdict stub "the stub" || exit 1
cp "$root/reference/day38/solution/edge_mapping.cu" "$exercise"
edit_to_verdict solution "a working kernel: the solution" || exit 1
