#!/usr/bin/env bash
# Issue 46's chaos class on a GPU machine: each honest variant (the
# instructor solution, and four planted bugs, one a day) graded alone (one
# student at a time), then 56 honest students graded in one class with 8
# hostile neighbours (tests/day38/chaos/) spread among them, the same seed.
# Every honest student's verdict and points per gate must equal its variant's
# alone; every neighbour must fail 38.distances with a message, its other
# days (the solution's) graded as the solution alone (.ci/chaos-verdicts.py).
# Exits non-zero on any difference.
#   .ci/chaos-class.sh BUILD_DIR OUT_DIR     (BUILD_DIR: a configured tree with its plants/,
#                                             e.g. .ci/gpu-suite.sh's)
# The alone gradings come first, so that a class cut short can still be
# checked as far as it got:
#   .ci/chaos-verdicts.py OUT_DIR/graded OUT_DIR/alone --partial
# (on another machine too, after .ci/chaos-collect.sh OUT_DIR COPY, or COPY.tar.gz
# for a device poll's $OUT).
# Environment: CHAOS_HONEST (honest students, default 56: a quarter of them
# planted), CHAOS_CLASS_FIRST=1 (the class before the alone gradings: a
# stall shows sooner, at the cost of a partial check), CHAOS_NO_REPORTS=1 (both gradings without the day reports, which
# carry no points but lengthen the class: docs/performance.md),
# CUDA_ARCHS, and grade_class.sh's options for the class in CHAOS_CLASS_ARGS.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
out=$2
mkdir -p "$out"
source "$root/.ci/find-bwrap.sh"
source "$root/.ci/class-lib.sh"
source "$root/.ci/carried-deps.sh"
log="$out/chaos-class.txt"
: >"$log"
say() { echo "$*" | tee -a "$log"; }
args=(-DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-native}" "${deps_args[@]}")
seed=${GRADING_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
# One planted bug a day, each in the student's own file (harness/<day>/plants.cmake).
plants=(day38/first_of_tied_starts/edge_mapping.cu day34/apron_row_short/heat_tiled.cu
        msw/compare_low_half/msw_kernels.cu day52/join_forgets_branch/diamond.cu)
neighbours=(memory_hog spinning_kernel host_threads fork_bomb tmp_filler stdout_flood illegal_address sleeper)

# variant NAME DIR: DIR staged as the honest variant NAME ("solution" or a plants[] entry).
variant() {
  stage_solution "$2"
  [ "$1" = solution ] && return 0
  local day=${1%%/*} file=${1##*/}
  cp "$build/harness/$day/plants/$(basename "$(dirname "$1")")/$file" "$2/$day/$file" ||
    { echo "chaos-class: no plant $1 under $build/harness (configure BUILD_DIR first)" >&2; exit 1; }
}
variant_name() { [ "$1" = solution ] && echo solution || basename "$(dirname "$1")"; }

class="$out/class"
alone="$out/alone-submissions"
rm -rf "$class" "$alone" "$out/graded" "$out/alone" && mkdir -p "$class" "$alone"
honest=${CHAOS_HONEST:-56}
total=$((honest + ${#neighbours[@]}))
# A class is graded in name order, so each name starts with its place: each
# neighbour in the middle of its eighth of the class (4, 12, ..., 60 of 64),
# graded among honest students, not after them all.
declare -A neighbour_at=()
for k in "${!neighbours[@]}"; do neighbour_at[$(((2 * k + 1) * total / (2 * ${#neighbours[@]})))]=${neighbours[$k]}; done
i=0
for ((place = 0; place < total; place++)); do
  name=$(printf "%0${#total}d" "$place")
  if [[ -n "${neighbour_at[$place]:-}" ]]; then
    # A student's file that passes the class build's checks (a hostile test's
    # would fail its symbol check and never run), beside a copy of the
    # solution it includes.
    n=${neighbour_at[$place]}
    stage_solution "$class/${name}_hostile_$n"
    cp "$root/reference/day38/solution/edge_mapping.cu" "$class/${name}_hostile_$n/day38/copied_solution.cu"
    cp "$root/tests/day38/chaos/$n.cu" "$class/${name}_hostile_$n/day38/edge_mapping.cu"
    continue
  fi
  # Every fourth honest student a planted bug, the days in turn.
  v=solution
  ((i % 4 == 3)) && v=${plants[$(((i / 4) % ${#plants[@]}))]}
  variant "$v" "$class/${name}_honest_$(variant_name "$v")"
  i=$((i + 1))
done
for v in solution "${plants[@]}"; do variant "$v" "$alone/$(variant_name "$v")"; done
say "chaos class: $honest honest students and ${#neighbours[@]} neighbours, seed $seed"

reports=()
[[ -n "${CHAOS_NO_REPORTS:-}" ]] && reports=(--no-reports)
grade_alone() {
  local start
  start=$(date +%s)
  "$root/harness/grading/grade_class.sh" "$alone" "$out/alone" --seed "$seed" -j 1 --timed-turns 1 "${reports[@]}" \
    --build-args "${args[@]}" >"$out/grade-alone.log" 2>&1
  say "the honest variants alone, one at a time: exit $? in $(($(date +%s) - start)) s"
}
grade_the_class() (  # a subshell: the traces it turns on stay its own
  start=$(date +%s)
  # The class's case, call and slot traces (OUT_DIR/class-*.tsv), so that a
  # class that stalls or slows can be explained from what the poll brings back.
  source "$root/lab/scripts/traces.sh"
  traces_on "$out" class-
  traces_clear
  "$root/harness/grading/grade_class.sh" "$class" "$out/graded" --seed "$seed" "${reports[@]}" ${CHAOS_CLASS_ARGS:-} \
    --build-args "${args[@]}" >"$out/grade-class.log" 2>&1
  say "the class: exit $? in $(($(date +%s) - start)) s"
)
if [[ -n "${CHAOS_CLASS_FIRST:-}" ]]; then
  grade_the_class
  grade_alone
else
  grade_alone
  grade_the_class
fi
python3 "$root/.ci/chaos-verdicts.py" "$out/graded" "$out/alone" | tee -a "$log"
exit "${PIPESTATUS[0]}"
