#!/usr/bin/env bash
# .ci/chaos-verdicts.py on made-up graded classes: the same verdicts as alone
# pass; a changed score, a changed status, an ungraded student, a
# neighbour that passes, one that never built and one whose honest day
# (another than 38) differs from the solution's each fail, the student and
# the gate named; a test without a status (not run) compares as such; a
# different first failure under the same verdict is a note, not a failure,
# and a passed gate's message (timings) is neither;
# --partial counts a student not graded yet instead of failing it; a student
# that cannot be compared (a stray name, its variant not graded alone) is one
# failed check;
# .ci/chaos-collect.sh's copy of a chaos out folder checks as the folder does.
#   chaos_verdicts.sh REPO_ROOT
set -uo pipefail
source "$(dirname "$0")/script_test.sh"
check=$root/.ci/chaos-verdicts.py

# student FOLDER STAGED NAME GATE:STATUS:SCORE:OUTPUT...
student() {
  local folder=$1 staged=$2 name=$3
  shift 3
  mkdir -p "$folder/$staged"
  printf '%s\t%s\n' "$staged" "$name" >>"$folder/names.tsv"
  python3 - "$folder/$staged/results.json" "$@" <<'PY'
import json, sys
tests = []
for spec in sys.argv[2:]:
    gate, status, score, output = spec.split(":", 3)
    test = {"name": gate + " (grading)", "score": int(score), "max_score": 4, "output": output}
    if status != "-":  # "-": none, as results.json leaves a test that did not run
        test["status"] = status
    tests.append(test)
json.dump({"tests": tests}, open(sys.argv[1], "w"))
PY
}

make_alone() {
  rm -rf "$work/alone"
  student "$work/alone" s0001 solution "38.distances:passed:4:" "34.stencil:passed:4:" "52.stress:-:0:NOT RUN: no GPU"
  student "$work/alone" s0002 first_of_tied_starts "38.distances:failed:0:vertex 3: got 1, want 2; smallest failing input found (4 tries): a" "34.stencil:passed:4:"
}
make_class() {  # the planted student's 38.distances, the neighbour's, its build (default passed), its 34.stencil
  rm -rf "$work/class"
  student "$work/class" s0001 00_honest_solution "38.distances:passed:4:" "34.stencil:passed:4:" \
    "52.stress:-:0:NOT RUN: no GPU"
  student "$work/class" s0002 01_hostile_sleeper "${3:-day38.builds:passed:0:}" "$2" "${4:-34.stencil:passed:4:}" \
    "52.stress:-:0:NOT RUN: no GPU"
  student "$work/class" s0003 02_honest_first_of_tied_starts "$1" "34.stencil:passed:4:"
}
expect() {  # what, exit status wanted, pattern the output must hold, options; leaves the output in $got
  local rc
  got=$(python3 "$check" "$work/class" "$work/alone" "${@:4}" 2>&1)
  rc=$?
  [ "$rc" = "$2" ] || fail "$1: exit $rc, want $2: $got"
  grep -qE "$3" <<<"$got" || fail "$1: no /$3/ in: $got"
}

make_alone
neighbour="38.distances:failed:0:made no progress for 5.0 s"
make_class "38.distances:failed:0:vertex 3: got 1, want 2; smallest failing input found (9 tries): b" "$neighbour"
expect "the same verdicts, another shrunk input" 0 "9 of 9 checks"
make_class "38.distances:failed:0:vertex 3: got 1, want 2" "$neighbour" "" "34.stencil:passed:4:PASS: 0.0277 ms against 0.0274 ms"
expect "a passed gate with other timings in its message" 0 "9 of 9 checks"
grep -q "^note" <<<"$got" && fail "a passed gate's message taken for a first failure: $got"
make_class "38.distances:failed:0:vertex 5: got 1, want 2" "$neighbour"
expect "the same verdict, another first failure" 0 "note 02_honest_first_of_tied_starts \\(s0003\\): 38.distances"
make_class "38.distances:passed:4:" "$neighbour"
expect "a planted bug passing in the class" 1 "DIFFERENT 02_honest_first_of_tied_starts \\(s0003\\): 38.distances passed 4/4 in the class, failed 0/4 as first_of_tied_starts alone"
make_class "38.distances:failed:0:vertex 3: got 1, want 2" "38.distances:passed:4:"
expect "a neighbour that passes" 1 "DIFFERENT 01_hostile_sleeper \\(s0002\\): 38.distances should fail"
make_class "38.distances:failed:0:vertex 3: got 1, want 2" "38.distances:failed:0:"
expect "a neighbour failing without a message" 1 "DIFFERENT 01_hostile_sleeper"
make_class "38.distances:failed:0:vertex 3: got 1, want 2" "38.distances:failed:0:day38 did not build" \
  "day38.builds:failed:0:it defines day38::referenceExpandEdgePerThread"
expect "a neighbour that never built" 1 "DIFFERENT 01_hostile_sleeper \\(s0002\\): day38.builds should pass"
make_class "38.distances:failed:0:vertex 3: got 1, want 2" "$neighbour" "" "34.stencil:failed:0:cell (3, 4): got 1, want 2"
expect "a neighbour's honest day graded otherwise than the solution" 1 \
  "DIFFERENT 01_hostile_sleeper \\(s0002\\): 34.stencil failed 0/4 in the class, passed 4/4 as solution alone: cell"
make_class "38.distances:failed:0:vertex 3: got 1, want 2" "$neighbour"
rm "$work/class/s0001/results.json"
expect "a student not graded" 1 "DIFFERENT 00_honest_solution \\(s0001\\): not graded"
grep -q "6 of 7 checks" <<<"$got" || fail "a student not graded is not one failed check: $got"
expect "a student not graded yet, --partial" 0 "1 not graded yet; 6 of 6 checks" --partial
printf 's0004\thonest_solution\n' >>"$work/class/names.tsv"
expect "a name the chaos class does not make" 1 "DIFFERENT honest_solution \\(s0004\\): not a chaos-class name" --partial
grep -q "6 of 7 checks" <<<"$got" || fail "a stray name is not one failed check: $got"
rm "$work/alone/s0002/results.json"
expect "a variant not graded alone" 1 "DIFFERENT 02_honest_first_of_tied_starts \\(s0003\\): its variant first_of_tied_starts was not graded alone" --partial
grep -q "4 of 6 checks" <<<"$got" || fail "a variant not graded alone is not one failed check: $got"
# A chaos out folder (graded/, alone/), collected as a device poll does.
make_alone
make_class "38.distances:failed:0:vertex 3: got 1, want 2" "$neighbour"
mkdir -p "$work/out" && mv "$work/class" "$work/out/graded" && mv "$work/alone" "$work/out/alone"
echo "the class: exit 0" >"$work/out/chaos-class.txt"
printf 's0001.day38\t38.distances\n' >"$work/out/class-trace.tsv"
mkdir -p "$work/out/graded/s0001/build" && echo big >"$work/out/graded/s0001/build/runner"
printf '[ RUN ] a case\ngrading: pid 12 has waited 300 s for GPU 0 (shared); its lock files'"'"' holders:\n  gpu-0.slot0: pid 5 (day38_tests)\n[ OK ] a case\n' >"$work/out/graded/s0002/ctest.log"
bash "$root/.ci/chaos-collect.sh" "$work/out" "$work/copy" || fail "chaos-collect.sh failed"
bash "$root/.ci/chaos-collect.sh" "$work/out" "$work/copy.tar.gz" || fail "chaos-collect.sh failed to archive"
mkdir -p "$work/unpacked" && tar xzf "$work/copy.tar.gz" -C "$work/unpacked" || fail "the archive does not unpack"
for copy in "$work/copy" "$work/unpacked"; do
  [ -f "$copy/chaos-class.txt" ] || fail "$copy: chaos-collect.sh left out chaos-class.txt"
  [ ! -e "$copy/graded/s0001/build" ] || fail "$copy: chaos-collect.sh copied a student's build"
  [ -s "$copy/class-trace.tsv" ] || fail "$copy: chaos-collect.sh left out the class's trace"
  grep -q "chaos-collect" "$copy/processes.txt" || fail "$copy: no snapshot of the running processes"
  grep -q "== /proc/locks" "$copy/slot-locks.txt" || fail "$copy: no record of the GPU slots' holders"
  [[ "$(cat "$copy/slot-waits.txt")" == "$work/out/graded/s0002/ctest.log: grading: pid 12 has waited"*$'\n  gpu-0.slot0: pid 5 (day38_tests)' ]] ||
    fail "$copy: the tests' notices of long waits for the GPU not collected as they are: $(cat "$copy/slot-waits.txt")"
  got=$(python3 "$check" "$copy/graded" "$copy/alone" 2>&1) || fail "$copy: $got"
  grep -q "9 of 9 checks" <<<"$got" || fail "$copy checked otherwise: $got"
done
finish "chaos verdicts"
