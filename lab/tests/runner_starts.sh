#!/usr/bin/env bash
# lab/scripts/runner-starts.sh on a hand-made call trace: s0001 probes
# day34's runner twice and msw's once, s0002 day34's once; the course's
# runner is probed once, and a call that is not a probe counts nothing.
# --before leaves out s0001's second day 34 probe, asked later (a shrink's
# rerun). Then a trace with no class runner says so.
#   runner_starts.sh REPO_ROOT
set -uo pipefail
source "$(dirname "$0")/../../tests/grading/script_test.sh"
t=$'\t'
row() { printf '%s\n' "$1${t}100${t}90${t}49${t}0${t}${3:-1796544763590}${t}/out/graded/build/runners/$2${t}ok"; }
{ row probe day34_runner_s0001; row probe day34_runner_s0001 1796544769000; row probe msw_runner_s0001
  row probe day34_runner_s0002; row probe day52_runner_course; row "find --impl two_phase" msw_runner_s0001
} >"$work/calls.tsv"
# The table for day 34 and msw, each student's starts and the summary line.
expect_table() {  # what, the script's arguments, s0001's day34, msw and all, then the summary's figures
  local what=$1 args=$2 got want
  got=$(bash "$root/lab/scripts/runner-starts.sh" $args "$work/calls.tsv" 2>&1)
  want="runner starts, one a test process (its probe), per student and day:
student    day34     msw     all
s0001          $3       1       $4
s0002          1       0       1
a student: $5, 2 students
other runners: day52_runner_course 1"
  [ "$got" = "$want" ] || fail "$what
--- got
$got
--- want
$want"
}
expect_table "a class's trace" "" 2 3 "2.0 on average (1 to 3)"
expect_table "before the shrinking" "--before 1796544769000000" 1 2 "1.5 on average (1 to 2)"
row probe day52_runner_course >"$work/none.tsv"
got=$(bash "$root/lab/scripts/runner-starts.sh" "$work/none.tsv" 2>&1)
[ "$got" = "no class runner was probed" ] || fail "no class runner: got $got"
finish "lab/scripts/runner-starts.sh"
