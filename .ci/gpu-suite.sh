#!/usr/bin/env bash
# The whole suite on a machine with an NVIDIA GPU: build, the tests (harness,
# reference, planted bugs), the submission graded with its report, the leak
# check and the benchmarks. GPU runners' CI and the lead's device runs use it.
#
#   .ci/gpu-suite.sh [label-regex]      e.g. .ci/gpu-suite.sh 'day38|harness'
#
# Environment: OUT (logs and reports; default <build>/out), BUILD_DIR
# (default /tmp/grading-gpu), CUDA_ARCHS (default native), JOBS (default the
# core count), GRADING_SEED (replay a run), GRADING_DAYS (e.g. "day38;msw").
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-/tmp/grading-gpu}
out=${OUT:-$build/out}
jobs=${JOBS:-$(nproc)}
labels=${1:-.}
mkdir -p "$out"
export GRADING_SEED=${GRADING_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "GRADING_SEED=$GRADING_SEED (replay with GRADING_SEED=$GRADING_SEED)"
nvidia-smi -L || true

args=(-G Ninja "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS:-native}")
[ -n "${GRADING_DAYS:-}" ] && args+=("-DGRADING_DAYS=$GRADING_DAYS")
[ -d "$root/.deps/googletest" ] && args+=("-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=$root/.deps/googletest")
[ -d "$root/.deps/benchmark" ] && args+=("-DCMAKE_PREFIX_PATH=$root/.deps/benchmark")
start=$(date +%s)
cmake -S "$root" -B "$build" "${args[@]}" > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -- -k 0 > "$out/build.log" 2>&1
build_rc=$?
echo "build: exit $build_rc in $(( $(date +%s) - start )) s"
[ $build_rc -eq 0 ] || grep -E "error|FAILED" "$out/build.log" | head -40

# Timing-sensitive tests are registered RUN_SERIAL, so ctest runs them alone.
ctest_common=(--test-dir "$build" --output-on-failure --test-output-size-passed 65536 --timeout 600 -j "$jobs")
ctest "${ctest_common[@]}" -LE submission -L "$labels" --output-junit "$out/junit-tests.xml" \
  > "$out/ctest-tests.log" 2>&1
rc_tests=$?
echo "== ctest (harness, reference, planted, hostile): $(grep -E 'tests passed|tests failed' "$out/ctest-tests.log")"
grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|Exception|Not Run)' "$out/ctest-tests.log" | head -40

# The submission (exercises/ unless configured otherwise) graded as a student
# sees it; the stub is expected to fail its gates, so this does not decide
# the exit status.
ctest "${ctest_common[@]}" -L submission -L "$labels" --output-junit "$out/junit-submission.xml" \
  --output-log "$out/ctest-submission-full.log" > "$out/ctest-submission.log" 2>&1
echo "== submission: $(grep -E 'tests passed|tests failed' "$out/ctest-submission.log")"
if [ -x "$build/harness/grading/grade_report" ]; then
  "$build/harness/grading/grade_report" --gates "$root/harness/gates.tsv" --prefix submission. \
    --junit "$out/junit-submission.xml" --ctest-log "$out/ctest-submission-full.log" --show-reports \
    --build-log "$out/build.log" --results-json "$out/results.json" \
    > "$out/grade-report.txt" 2>&1
  head -60 "$out/grade-report.txt"
fi

# Leaks: the day 52 reference runner under compute-sanitizer's leak check.
# no-timing provokes cudaEventElapsedTime errors on purpose: API errors are
# not reported for it.
runner52="$build/runners/day52_runner_reference"
if [ -x "$runner52" ] && command -v compute-sanitizer >/dev/null; then
  leak_rc=0
  for call in "diamond" "serial" "stress --runs 8" "timing --warmups 3 --runs 10" "broken" "no-timing"; do
    extra=(); [ "$call" = no-timing ] && extra=(--report-api-errors no)
    # shellcheck disable=SC2086
    compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 "${extra[@]}" \
      "$runner52" $call --out "$out/leak.rec" >> "$out/leakcheck.log" 2>&1 || { leak_rc=1; echo "leak check failed: $call"; }
  done
  echo "== leak check (day52 reference, 6 subcommands): $([ $leak_rc -eq 0 ] && echo clean || echo FAILED); $(grep -c 'LEAK SUMMARY: 0 bytes leaked\|ERROR SUMMARY: 0 errors' "$out/leakcheck.log") clean summaries"
fi

# Benchmarks (tables, not gates).
if [ -x "$build/bench/msw/msw_bench" ]; then
  "$build/bench/msw/msw_bench" --benchmark_counters_tabular=true > "$out/msw-bench.txt" 2>&1
  echo "== msw benchmark: exit $?"; tail -20 "$out/msw-bench.txt"
fi

[ $build_rc -eq 0 ] && [ $rc_tests -eq 0 ]
