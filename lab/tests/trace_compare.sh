#!/usr/bin/env bash
# lab/scripts/trace-compare.sh on two hand-made traces (GRADING_TRACE's
# columns: test, gate, case, total ms, call ms, wait ms, calls, starts, start,
# end, exclusive ms). Before: msw.index 4 s of calls in two cases, 1 s of
# waits; 38.distances 2 s. After: msw.index 3 s (-25%), 38.distances 3 s
# (+50%), and 52.stress, new, 0.5 s (no change to give). All: 6 s to 6.5 s.
#   trace_compare.sh REPO_ROOT
set -uo pipefail
source "$(dirname "$0")/../../tests/grading/script_test.sh"
t=$'\t'
printf '%s\n' "a${t}msw.index${t}n10${t}3000${t}2500${t}500${t}2${t}1${t}0${t}3000${t}0" \
  "a${t}msw.index${t}n20${t}2000${t}1500${t}500${t}1${t}0${t}3000${t}5000${t}0" \
  "b${t}38.distances${t}edge_chain${t}2000${t}2000${t}0${t}1${t}1${t}0${t}2000${t}0" >"$work/before.tsv"
printf '%s\n' "a${t}msw.index${t}n10${t}3000${t}3000${t}0${t}1${t}1${t}0${t}3000${t}0" \
  "b${t}38.distances${t}edge_chain${t}3000${t}3000${t}0${t}1${t}1${t}0${t}3000${t}0" \
  "c${t}52.stress${t}seeded${t}500${t}500${t}250${t}1${t}1${t}0${t}500${t}0" >"$work/after.tsv"
got=$(bash "$root/lab/scripts/trace-compare.sh" "$work/before.tsv" "$work/after.tsv" 2>&1)
want="gate                 calls s (A) calls s (B)   change  wait s (A)  wait s (B)
msw.index                    4.0         3.0     -25%         1.0         0.0
38.distances                 2.0         3.0     +50%         0.0         0.0
52.stress                    0.0         0.5        -         0.0         0.2
all                          6.0         6.5      +8%         1.0         0.2"
[ "$got" = "$want" ] || fail "two traces
--- got
$got
--- want
$want"
bash "$root/lab/scripts/trace-compare.sh" "$work/before.tsv" >/dev/null 2>&1 && fail "one trace: no usage error"
finish "lab/scripts/trace-compare.sh"
