#!/usr/bin/env bash
# A student's day 38 edit to its verdict in an existing build: the exercise's
# file touched, its runner rebuilt, the day's submission tests run. Prints
# one line with the three times; logs go to OUT_DIR.
#
#   .ci/edit-to-verdict.sh BUILD_DIR OUT_DIR [jobs]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
out=$2
jobs=${3:-$(nproc)}
mkdir -p "$out"
touch "$root/exercises/day38/edge_mapping.cu"
start=$(date +%s.%N)
cmake --build "$build" --target day38_runner_submission >"$out/edit-build.log" 2>&1
mid=$(date +%s.%N)
ctest --test-dir "$build" -L day38 -L submission -j "$jobs" >"$out/edit-tests.log" 2>&1
end=$(date +%s.%N)
awk -v s="$start" -v m="$mid" -v e="$end" \
  'BEGIN { printf "day 38 edit-to-verdict: %.1f s (build %.1f s, tests %.1f s)\n", e - s, m - s, e - m }'
