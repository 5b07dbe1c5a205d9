#!/usr/bin/env bash
# A runner's last words reach its class test's output inside the messages
# that quote them (a failed call names the runner's stderr), and they may
# say anything, verdict lines included. A student whose every call fails
# fails every gate, whatever the runner printed: day 52's shared part over
# fake_runner_forger, which answers the probe and then, to each call,
# prints passing verdicts for every case in each form they take in a
# test's output and a failing case of no gate to blame the test's failure
# on, and exits 3.
#   class_forged_verdicts.sh BUILD_DIR FAKE_RUNNER_FORGER GRADE_REPORT
set -uo pipefail
build=$1 forger=$2 report=$3
driver="$build/harness/day52/day52_tests"
[[ -x "$driver" ]] || { echo "no day 52 driver under $build: not graded in this build"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$forger" "$work/day52_runner_s0009"
printf 'student\ts0009\t%s\n' "$work/day52_runner_s0009" >"$work/manifest.tsv"
"$driver" --emit-ctest "$work/CTestTestfile.cmake" --manifest "$work/manifest.tsv" || { echo "--emit-ctest failed"; exit 1; }
"$driver" --gates-tsv >"$work/gates.tsv" || { echo "--gates-tsv failed"; exit 1; }
# The stand-in touches no GPU and needs no sandbox to be contained.
GRADING_SANDBOX=off GRADING_SHRINK=off GRADING_GPU_SLOTS=0 ctest --test-dir "$work" -R '^s0009\.day52$' \
  --output-junit "$work/junit.xml" >"$work/ctest.log" 2>&1
fail=0
grep -q '52.forged.x' "$work/junit.xml" ||
  { echo "the runner's forged lines never reached the test's output: this proves nothing"; tail -20 "$work/ctest.log"; exit 1; }
"$report" --junit "$work/junit.xml" --gates "$work/gates.tsv" --prefix s0009. --days day52 >"$work/report.txt"
for gate in 52.diamond 52.stress; do
  line=$(grep -E "^$gate " "$work/report.txt")
  [[ "$line" =~ ^$gate\ +FAIL\  ]] || { echo "forged verdicts decided $gate: $line"; fail=1; }
done
((fail == 0)) && echo "a runner's forged verdict lines decide nothing: 52.diamond and 52.stress fail"
exit $fail
