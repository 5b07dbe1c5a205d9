#!/usr/bin/env bash
# The course's policy (grading.json): a file that gives msw.index other
# points and visibility changes the gates table, results.json and the text
# report accordingly; a misspelt key or input list fails the configure,
# naming it.
#   policy.sh <msw driver> <grade_report> <source root>
set -euo pipefail
driver=$1 report=$2 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$work/policy.json" <<'JSON'
{"gates": {"msw.index": {"points": 7, "visibility": "after_due_date"}, "34.speed": {"points": 5}}}
JSON
"$driver" --gates-tsv --policy "$work/policy.json" > "$work/gates.tsv"
grep -qP '^msw\.index\tmsw\t7\tafter_due_date\t' "$work/gates.tsv" ||
  { cat "$work/gates.tsv"; fail "the gates table does not carry the policy's points and visibility"; }
"$driver" --gates-tsv > "$work/declared.tsv"
grep -qP '^msw\.index\tmsw\t8\tvisible\t' "$work/declared.tsv" || fail "without the policy, msw.index is not as declared"

printf '<testsuite><testcase name="submission.msw.index" status="run" time="0.1"><system-out>ok</system-out></testcase></testsuite>' \
  > "$work/junit.xml"
"$report" --junit "$work/junit.xml" --gates "$work/gates.tsv" --days msw --results-json "$work/results.json" \
  > "$work/report.txt" || true
grep -qE '^msw\.index +PASS +7/7' "$work/report.txt" || { cat "$work/report.txt"; fail "the report does not give msw.index 7 points"; }
python3 - "$work/results.json" <<'PY' || fail "results.json does not follow the policy"
import json, sys
tests = {t["name"].split(":")[0]: t for t in json.load(open(sys.argv[1]))["tests"]}
index = next(t for n, t in tests.items() if n.startswith("msw.index"))
assert index["max_score"] == 7 and index["score"] == 7, index
assert index["visibility"] == "after_due_date", index
PY
echo "msw.index at 7 points, after_due_date: in the gates table, the report and results.json"

echo '{"gates": {"msw.index": {"pointz": 7}}}' > "$work/misspelt.json"
if cmake -S "$root" -B "$work/build" -G Ninja -DGRADING_POLICY="$work/misspelt.json" -DGRADING_DAYS=msw \
     -DGRADING_BUILD_TESTS=OFF -DGRADING_BUILD_PLANTED=OFF -DGRADING_BUILD_BENCH=OFF > "$work/configure.log" 2>&1; then
  fail "a misspelt key configured"
fi
grep -q "misspelt.json: gates.msw.index.pointz: not a key of a gate" "$work/configure.log" ||
  { cat "$work/configure.log"; fail "the configure error does not name the misspelt key"; }
echo "a misspelt key fails the configure: gates.msw.index.pointz"

# An input list is one a day declares (grading_instructor_files in its
# CMakeLists.txt), whichever days the build has: a misspelt one fails the
# configure, naming those there are.
echo '{"inputs": {"day38": {"graph": []}}}' > "$work/inputs.json"
if cmake -S "$root" -B "$work/build" -G Ninja -DGRADING_POLICY="$work/inputs.json" -DGRADING_DAYS=msw \
     -DGRADING_BUILD_TESTS=OFF -DGRADING_BUILD_PLANTED=OFF -DGRADING_BUILD_BENCH=OFF > "$work/configure.log" 2>&1; then
  fail "a misspelt input list configured"
fi
# CMake wraps a long message: the log's lines joined.
tr -s ' \n' '  ' <"$work/configure.log" |
  grep -q "inputs.json: inputs.day38.graph: not an input list a day declares (day34.grids, day38.graphs)" ||
  { cat "$work/configure.log"; fail "the configure error does not name the input lists"; }
echo "a misspelt input list fails the configure: inputs.day38.graph"
