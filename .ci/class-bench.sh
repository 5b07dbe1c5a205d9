#!/usr/bin/env bash
# Issue 12's figures on a GPU machine, in one run:
#  - a class from an empty build folder: one configure and build for all,
#    then every student's tests (grade_class.sh), wall time split, where
#    the time went (the case, call and slot traces) and the runner starts
#    per student and day (lab/scripts/runner-starts.sh), and each speed
#    gate's ratios over the class (the solutions' must earn all of it);
#  - the marginal cost of more students: the same class grown by as many
#    again, graded into the same folder (unchanged students are skipped, the
#    new ones' files compiled and tested);
#  - a student's day 38 edit-to-verdict in an existing build: the file
#    touched, its runner rebuilt, the day's submission tests run.
#   .ci/class-bench.sh BUILD_DIR OUT_DIR [students]     (BUILD_DIR: a built tree, e.g. .ci/gpu-suite.sh's;
#                                                     only the edit-to-verdict uses it, and SKIP_EDIT=1 skips that)
# Environment: GROW (students added; default as many again, 0 none), GROW_ONLY=1
# (only grow the class an earlier run graded into OUT_DIR; its size is counted),
# TIMED_TURNS (grade_class's --timed-turns), CUDA_ARCHS.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
out=$2
students=${3:-8}
mkdir -p "$out"
source "$root/.ci/find-bwrap.sh"
source "$root/.ci/class-lib.sh"
source "$root/.ci/gpu-busy.sh"
log="$out/class-bench.txt"
[ -n "${GROW_ONLY:-}" ] || : >"$log"
say() { echo "$*" | tee -a "$log"; }
args=(-DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-native}")
source "$root/.ci/carried-deps.sh"
args+=("${deps_args[@]}")

make_class() {  # folder, first index, count: solutions, stubs and one that does not compile
  local dir=$1 first=$2 count=$3 i
  for ((i = first; i < first + count; i++)); do
    local s="$dir/student$(printf %03d "$i")"
    if ((i % 4 != 3)); then stage_solution "$s"; else cp -r "$root/exercises" "$s"; fi
    ((i == first + 1)) && echo "this is not C++" >>"$s/day38/edge_mapping.cu"
  done
}

# TIMED_TURNS: day tests timing at once (grade_class's default else).
class_opts=(-j 8 --seed 12 ${TIMED_TURNS:+--timed-turns "$TIMED_TURNS"})
class="$out/class-submissions"
# The class graded into OUT_DIR/graded, its log in $1: sets rc, took (s),
# built (configure + build, s) and busy (how busy the GPU's kernels were).
grade_timed() {
  local start
  start=$(date +%s)
  gpu_busy_start "${1%.log}.dmon.txt"
  "$root/harness/grading/grade_class.sh" "$class" "$out/graded" "${class_opts[@]}" --build-args "${args[@]}" >"$1" 2>&1
  rc=$?
  busy=$(gpu_busy_stop)
  took=$(($(date +%s) - start))
  built=$(sed -n 's/^harness built in \([0-9]*\) s.*/\1/p' "$1")
}
# Where the class's test time goes: OUT_DIR/class-{trace,calls,slots}.tsv.
source "$root/lab/scripts/traces.sh"
traces_on "$out" class-
if [ -n "${GROW_ONLY:-}" ]; then
  # A class already graded into OUT_DIR (an earlier run with GROW=0) grows by
  # GROW: a class too large for one sitting measured in two.
  [ -f "$out/graded/summary.csv" ] || { echo "GROW_ONLY: no graded class in $out" >&2; exit 1; }
  students=$(find "$class" -mindepth 1 -maxdepth 1 -type d | wc -l)
else
  rm -rf "$class" "$out/graded" && mkdir -p "$class"
  make_class "$class" 0 "$students"
  traces_clear
  grade_timed "$out/grade-class.log"
  say "class of $students (4 days each) from an empty build folder: $took s wall (configure + harness build $built s, then the tests, the students' runners built beside them), exit $rc"
  [ -z "$busy" ] || say "$busy (build included)"
  # The split: configure and harness build, the students' runners (built
  # beside the tests), the tests.
  grep -E "^harness built in|runners built in|every student's tests ran in" "$out/grade-class.log" | tee -a "$log"
  tail -2 "$out/grade-class.log" | tee -a "$log"  # the class table and dashboard
  traces_print 10 | tee -a "$log"
  bash "$root/lab/scripts/runner-starts.sh" "$GRADING_CALL_TRACE" | tee -a "$log"
  if [ -s "$out/graded/verdicts-out" ]; then
    echo "before the failures were shrunk (grading alone):"
    bash "$root/lab/scripts/runner-starts.sh" --before "$(cat "$out/graded/verdicts-out")" "$GRADING_CALL_TRACE"
  fi | tee -a "$log"
  # The GPU's holds, drains and starts over the class, and the day tests' timed turns.
  { bash "$root/lab/scripts/slot-timeline.sh" "$GRADING_SLOT_TRACE"
    awk -F'\t' '$2 == "turn" { n++; wait += $4 - $3; held += $5 - $4 } END {
      if (n) printf "timed turns: %d, waited for %.1f s in all (%.2f s on average), held %.1f s in all\n", n, wait / 1e6, wait / 1e6 / n, held / 1e6 }' \
      "$GRADING_SLOT_TRACE"; } | tee -a "$log"
  # Timed calls hold the GPU exclusively, so no schedule packs a student below this.
  awk -F'\t' -v n="$students" '{ exclusive += $11 } END {
    printf "held the GPU exclusively (the calls that hold it): %.1f s per student of this class, a floor under the marginal cost\n", exclusive / 1000 / n }' \
    "$GRADING_TRACE" | tee -a "$log"
  # The speed gates over the class: the solution's copies must earn all of each (at most 1.2x).
  python3 - "$out/graded" <<'PY' | tee -a "$log"
import glob, json, re, statistics, sys
ratios = {}
for path in glob.glob(sys.argv[1] + "/s[0-9]*/results.json"):
    for t in json.load(open(path)).get("tests", []):
        m = re.search(r"(timed interleaved|the instructor timed once for the class): ([0-9.]+)x, ([0-9]+)% of the points", t.get("output", ""))
        if m:
            ratios.setdefault((t["name"].split()[0].rstrip(":"), m.group(1)), []).append((float(m.group(2)), int(m.group(3))))
# 52.overlap's ratio from the line its test prints; what it earned from the report.
for path in glob.glob(sys.argv[1] + "/s[0-9]*/junit.xml"):
    m = re.search(r"overlap on [^:\n]*: serial [^\n]*= ([0-9.]+)x on [0-9]+ SMs[^\n]*\((timed interleaved|the course\S* serial timed once for the class)\)",
                  open(path, errors="replace").read())
    gate = [t for t in json.load(open(path.replace("junit.xml", "results.json"))).get("tests", [])
            if t["name"].startswith("52.overlap ")]
    if m and gate:
        how = "timed interleaved" if m.group(2) == "timed interleaved" else "the course's serial timed once for the class"
        earned = 100 * gate[0]["score"] // gate[0]["max_score"] if gate[0]["max_score"] else 0
        ratios.setdefault(("52.overlap", how), []).append((float(m.group(1)), earned))
for (gate, how), rs in sorted(ratios.items()):
    r = sorted(x for x, _ in rs)
    print(f"{gate} ({how}): {len(r)} students, ratio median {statistics.median(r):.2f}x, from {r[0]:.2f}x to {r[-1]:.2f}x;"
          f" {sum(p == 100 for _, p in rs)} earned all of it")
PY
  cat "$out/graded/summary.md" >>"$log"
fi

# GROW: how many students to add (default as many again; 0: none).
grow=${GROW:-$students}
if ((grow > 0)); then
  make_class "$class" "$students" "$grow"
  grade_timed "$out/grade-class-grown.log"
  # One decimal: the target is 10 s per student, and 348 s for 32 is 10.9, not 10.
  per=$(awk -v t="$took" -v g="$grow" 'BEGIN { printf "%.1f", t / g }')
  # Only the added students should be graded: a changed harness, seed or
  # build argument (a commit in between counts) grades everyone again.
  regraded=$((students - $(grep -c '): unchanged, ' "$out/grade-class-grown.log")))
  if ((regraded > 0)); then
    say "the class grown by $grow more: $took s (harness build $built s), exit $rc; but $regraded of the $students graded before were graded again (the harness, seed or build arguments changed since): not a marginal cost"
  else
    say "the class grown by $grow more: $took s (harness build $built s): $per s per added student, exit $rc"
  fi
  grep "runners built in" "$out/grade-class-grown.log" | tee -a "$log"
  [ -z "$busy" ] || say "$busy (build included)"
fi

# A student's edit in an existing build (SKIP_EDIT=1: not this time).
[ -n "${SKIP_EDIT:-}" ] && exit 0
bash "$root/lab/scripts/edit-to-verdict.sh" "$build" "$out" | while IFS= read -r line; do say "$line"; done
