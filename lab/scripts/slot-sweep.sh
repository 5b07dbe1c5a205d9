#!/usr/bin/env bash
# How many runners should share a GPU: the same tests run at several
# GRADING_GPU_SLOTS values (and once one test at a time, the runners' own
# speed), each timed wall to wall, with what their runner calls took in all.
# Different processes' kernels take turns on a GPU (no MPS here: one client's
# fault would end every client's work), so past some number of slots another
# runner only adds waiting; this finds that number for a set of tests.
#
#   lab/scripts/slot-sweep.sh BUILD_DIR OUT_DIR [ctest-regex]
#   SLOTS="8 4 2" JOBS=16 ONE_AT_A_TIME=0 lab/scripts/slot-sweep.sh /tmp/grading-gpu /tmp/sweep '^reference\.msw\.index'
set -uo pipefail
# The submission's tests run sandboxed, and without bwrap they fail at once.
source "$(dirname "$0")/../../.ci/find-bwrap.sh"
build=$1
out=$2
regex=${3:-'^reference\.'}
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"
table="$out/slot-sweep.txt"
printf '%-22s %8s %8s %10s %10s\n' "run" "tests" "wall s" "calls s" "asked s" | tee "$table"

sweep_run() {  # name slots jobs
  local name=$1 slots=$2 j=$3 calls="$out/calls-$1.tsv" start end
  : >"$calls"
  start=$(date +%s%N)
  GRADING_GPU_SLOTS=$slots GRADING_CALL_TRACE=$calls \
    ctest --test-dir "$build" -R "$regex" -j "$j" >"$out/ctest-$name.log" 2>&1
  end=$(date +%s%N)
  awk -F'\t' -v name="$name" -v wall="$(( (end - start) / 1000000 ))" \
    -v tests="$(grep -cE 'Test +#' "$out/ctest-$name.log")" \
    '{ asked += $2; runner += $3 } END { printf "%-22s %8d %8.1f %10.1f %10.1f\n", name, tests, wall / 1000, runner / 1000, asked / 1000 }' \
    "$calls" | tee -a "$table"
  grep -E "tests passed|tests failed" "$out/ctest-$name.log" | sed "s/^/  $name: /" | tee -a "$table"
}

[ "${ONE_AT_A_TIME:-1}" = 1 ] && sweep_run one-at-a-time 1 1
for slots in ${SLOTS:-8 4 2}; do
  sweep_run "slots${slots}-j${jobs}" "$slots" "$jobs"
done
