#!/usr/bin/env bash
# The whole suite on a machine with an NVIDIA GPU: build for it, then every
# test in one ctest run (harness, reference, stubs, planted bugs, hostile
# submissions and the submission's own tests), the submission graded again as
# a student sees it (the grade target), the day 52 reference under
# compute-sanitizer's leak check, the chaos class and the days' benchmarks.
# GPU runners' CI and device runs use it. The lab's experiments (lab/) are
# not run here.
# The submission under test is the instructor solution, staged as a student's
# folder: every test must pass, the submission's included (the stubs are
# graded, and must fail, in the stub.* tests). SUBMISSION=DIR grades another
# folder (SUBMISSION=exercises: the stubs), whose own tests then do not
# decide the exit status.
# Runners of submitted code run in the bubblewrap sandbox: bwrap from PATH,
# or unpacked from .deps/bubblewrap_*.deb. Libraries the machine lacks come
# from .deps/ (.ci/device-deps.sh fills it, on a Debian machine).
#
#   .ci/gpu-suite.sh [label-regex]      e.g. .ci/gpu-suite.sh 'day38|harness'
#   REPEATS=5 WIDE_REPEATS=1 .ci/gpu-suite.sh   the suite 5 times, then once at twice the jobs
#
# OUT gets, besides the logs, small files to read first: summary.txt, and per
# run failures-run<N>.txt (each failed assertion and its message),
# scores-run<N>.txt (each scored gate's line, with its test) and
# longest-run<N>.txt (the 40 longest tests, in seconds) and where-run<N>.txt
# (where the cases' time went: runner calls, GPU waits or the host, by test,
# gate and case; from trace-run<N>.tsv, GRADING_TRACE's lines).
#
# Environment: OUT (logs and reports; default <build>/out), BUILD_DIR
# (default /tmp/grading-gpu), CUDA_ARCHS (default native), JOBS (default the
# core count), GRADING_SEED (replay a run), GRADING_DAYS (e.g. "day38;msw"),
# REPEATS (run the suite this many times, a new seed each),
# WIDE_REPEATS (then this many more at twice JOBS), SKIP_BUILD=1 (reuse BUILD_DIR),
# SKIP_GRADE=1 (stop after the suite: no grade target, leak check or benchmark),
# SKIP_BENCH=1 (everything but the benchmarks), SKIP_CHAOS=1 (no chaos class), SUBMISSION (see above),
# EXCLUDE_LABELS (a regex: the suite without those tests, e.g. project),
# NIGHTLY=1 (the planted bugs' shrink tests too, label nightly: each planted
# bug's shrink and its counterexample's bound; one a day runs in every suite),
# TESTS (a regex: only the tests it names, ctest -R; a check of a few).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-/tmp/grading-gpu}
out=${OUT:-$build/out}
jobs=${JOBS:-$(nproc)}
labels=${1:-.}
mkdir -p "$out"
summary="$out/summary.txt"
say() { echo "$*" | tee -a "$summary"; }
: >"$summary"
export GRADING_SEED=${GRADING_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
say "GRADING_SEED=$GRADING_SEED (replay with GRADING_SEED=$GRADING_SEED)"
nvidia-smi -L 2>&1 | tee -a "$summary" || true

source "$root/.ci/find-bwrap.sh"
say "sandbox: ${bwrap:-none}"
# Without the sandbox every test of submitted code skips (NOT RUN): a GPU
# runner must not go green on that.
if [ ! -x "$bwrap" ]; then
  say "no bwrap: install Debian's bubblewrap, or put its .deb in .deps/ (.ci/device-deps.sh); the suite needs the sandbox"
  exit 1
fi

source "$root/.ci/class-lib.sh"
source "$root/.ci/gpu-busy.sh"
if [ -n "${SUBMISSION:-}" ]; then
  submission=$(cd "$SUBMISSION" && pwd)
else
  submission="$build-solution"
  rm -rf "$submission" && stage_solution "$submission"
fi
say "submission: $submission"

args=(-G Ninja "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS:-native}" "-DGRADING_SUBMISSION_DIR=$submission")
[ -n "${GRADING_DAYS:-}" ] && args+=("-DGRADING_DAYS=$GRADING_DAYS")
source "$root/.ci/carried-deps.sh"
args+=("${deps_args[@]}")
start=$(date +%s)
build_rc=0
if [ -z "${SKIP_BUILD:-}" ]; then
  cmake -S "$root" -B "$build" "${args[@]}" > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
fi
cmake --build "$build" -- -k 0 > "$out/build.log" 2>&1 || build_rc=$?
say "build: exit $build_rc in $(( $(date +%s) - start )) s"
[ $build_rc -eq 0 ] || grep -E "error|FAILED" "$out/build.log" | head -40 | tee -a "$summary"

# One ctest run over every test. Tried on the H200 as phases instead (the
# tests that share the GPU, then those whose calls hold it exclusively, the
# project checks beside): 97 s against 93 s in one run, since the exclusive phase is calls
# that follow one another (40 s) while the GPU's other work could have gone
# on; here the shared tests fill the GPU's gaps. RUN_SERIAL tests (label
# serial) run last, ctest's own doing.
ctest_common=(--test-dir "$build" --output-on-failure --test-output-size-passed 65536)
nightly_skip='|^nightly$'
[ -z "${NIGHTLY:-}" ] || nightly_skip=
rc_tests=0
# Cut short (timeout's TERM at a device call's limit): the failures so far,
# with their messages, are kept, since the run's own summary never comes.
cut_short() {
  [ -z "${ctest_pid:-}" ] || kill "$ctest_pid" 2>/dev/null
  if [ -s "$out/ctest-tests.log" ]; then
    grep -aE -A8 ': Failure$' "$out/ctest-tests.log" | cut -c1-600 | head -400 > "$out/failures-so-far.txt"
    say "== cut short: $(grep -acE 'Test +#[0-9]+:' "$out/ctest-tests.log") tests ended, $(grep -acE 'Test +#[0-9]+:.*\*\*\*' "$out/ctest-tests.log") of them not passed (their messages: $out/failures-so-far.txt)"
    grep -aE 'Test +#[0-9]+:.*\*\*\*' "$out/ctest-tests.log" | head -60 >> "$summary"
  fi
  exit 124
}
trap cut_short TERM INT
# REPEATS runs at -j JOBS, each with a new seed; WIDE_REPEATS more at twice that.
total_runs=$(( ${REPEATS:-1} + ${WIDE_REPEATS:-0} ))
for ((r = 1; r <= total_runs; r++)); do
  [ "$r" -gt 1 ] && export GRADING_SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  width=$jobs
  [ "$r" -gt "${REPEATS:-1}" ] && width=$((2 * jobs))
  start=$(date +%s)
  gpu_busy_start "$out/dmon-run$r.txt"
  # The reference's and the submission's tests share the run's seed: what no
  # submission changes is computed once a run, as a class run does
  # (harness/core/include/harness/answer_cache.h).
  export GRADING_ANSWER_CACHE="$build/answers"
  rm -rf "$GRADING_ANSWER_CACHE" && mkdir -p "$GRADING_ANSWER_CACHE"
  export GRADING_TRACE="$out/trace-run$r.tsv"
  rm -f "$GRADING_TRACE"
  # The grade workflow's last step (label grade) reads the grade target's verdict: it runs after it, below.
  # In the background, so a signal reaches cut_short at once (bash runs a trap only after its foreground child ends).
  ctest "${ctest_common[@]}" -j "$width" -L "$labels" ${TESTS:+-R "$TESTS"} -LE "^grade\$$nightly_skip${EXCLUDE_LABELS:+|$EXCLUDE_LABELS}" --output-junit "$out/junit-tests.xml" \
    > "$out/ctest-tests.log" 2>&1 &
  ctest_pid=$!
  wait "$ctest_pid"
  ctest_pid=
  rm -rf "$GRADING_ANSWER_CACHE"
  unset GRADING_ANSWER_CACHE
  unset GRADING_TRACE
  [ -s "$out/trace-run$r.tsv" ] && bash "$root/lab/scripts/trace-summary.sh" "$out/trace-run$r.tsv" 30 > "$out/where-run$r.txt" 2>&1
  # Every scored gate's line (SCORE <gate> <points> <message>) with its test:
  # a passed test's output is only in ctest's LastTest.log, which the next
  # ctest replaces.
  awk '/^[0-9]+\/[0-9]+ Test: / { test = $3 } /^SCORE / { print test ": " $0 }' \
    "$build/Testing/Temporary/LastTest.log" > "$out/scores-run$r.txt"
  # The longest tests: where the suite's wall time goes.
  grep -aE 'Test +#[0-9]+:' "$out/ctest-tests.log" | sed -E 's/.*Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec.*/\2 \1/' |
    sort -rn | head -40 > "$out/longest-run$r.txt"
  busy=$(gpu_busy_stop)
  failed=$(grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|Exception|Not Run)' "$out/ctest-tests.log")
  others=$failed  # the solution's tests count; another folder's do not
  [ -z "${SUBMISSION:-}" ] || others=$(grep -vE '^\s+[0-9]+ - submission\.' <<<"$failed" | grep .)
  [ -z "$others" ] || rc_tests=1
  say "== whole suite, run $r (seed $GRADING_SEED, -j $width): $(grep -E 'tests passed|tests failed' "$out/ctest-tests.log") in $(( $(date +%s) - start )) s; failed that count: $(grep -c . <<<"$others")"
  [ -z "$busy" ] || say "   $busy"
  # The next run writes over ctest-tests.log: a run with failures keeps its own.
  if [ -n "$failed" ]; then
    cp "$out/ctest-tests.log" "$out/ctest-tests-run$r.log"
    say "   (run $r's log, with the failures' output: $out/ctest-tests-run$r.log)"
    # Each failed assertion with the message after it, small enough to read whole.
    grep -aE -A8 ': Failure$' "$out/ctest-tests.log" | cut -c1-600 | head -400 > "$out/failures-run$r.txt"
  fi
  echo "${others:-}" | head -40 | tee -a "$summary"
  grep -E '^\s+[0-9]+ - submission\.' <<<"$failed" | head -60 >> "$summary"
done
grep -A40 "Label Time Summary" "$out/ctest-tests.log" | sed '/^$/q' >> "$summary"

if [ -n "${SKIP_GRADE:-}" ]; then
  [ $build_rc -eq 0 ] && [ $rc_tests -eq 0 ]
  exit
fi

# The submission graded through the grade target as a student sees it (its
# tests again, and its reports): the solution's must pass; another folder's
# (SUBMISSION) does not decide the exit status.
start=$(date +%s)
cmake --build "$build" --target grade > "$out/grade-report.txt" 2>&1 &&
  ctest --test-dir "$build" -L '^grade$' >> "$out/grade-report.txt" 2>&1  # the workflow's last step
grade_rc=$?
say "== grade target: exit $grade_rc in $(( $(date +%s) - start )) s"
[ -n "${SUBMISSION:-}" ] || [ $grade_rc -eq 0 ] || rc_tests=1
sed -n '/^submission:/,/^score:/p' "$out/grade-report.txt" | tee -a "$summary"

# Leaks: the day 52 reference under compute-sanitizer's leak check.
if command -v compute-sanitizer >/dev/null; then
  start=$(date +%s)
  GRADING_SANITIZER=memcheck GRADING_SANITIZER_FLAGS="--leak-check full" \
    ctest "${ctest_common[@]}" -j "$jobs" -R '^reference\.52\.(diamond|serial|stress)$' > "$out/leakcheck.log" 2>&1
  say "== leak check (day 52 reference under memcheck --leak-check full): $(grep -E 'tests passed|tests failed' "$out/leakcheck.log") in $(( $(date +%s) - start )) s"
fi

# The chaos class (.ci/chaos-class.sh): honest students graded beside hostile
# neighbours must get their alone verdicts. About 25 minutes on the H200 (docs/performance.md);
# SKIP_CHAOS=1 skips it (and so does a build of some days only).
if [ -z "${SKIP_CHAOS:-}" ] && [ -z "${SUBMISSION:-}" ] && [ -z "${GRADING_DAYS:-}" ]; then
  start=$(date +%s)
  bash "$root/.ci/chaos-class.sh" "$build" "$out/chaos" > "$out/chaos.log" 2>&1
  chaos_rc=$?
  say "== chaos class: exit $chaos_rc in $(( $(date +%s) - start )) s: $(tail -1 "$out/chaos.log")"
  [ $chaos_rc -eq 0 ] || rc_tests=1
fi

# Benchmarks (tables, not gates), each day's that was built; SKIP_BENCH=1 skips them.
[ -n "${SKIP_BENCH:-}" ] || for bench in $(find "$build/harness" -name '*_bench' -type f -perm -u+x | sort); do
  name=$(basename "$bench")
  "$bench" --benchmark_counters_tabular=true > "$out/$name.txt" 2>&1
  say "== $name: exit $?"
done

[ $build_rc -eq 0 ] && [ $rc_tests -eq 0 ]
