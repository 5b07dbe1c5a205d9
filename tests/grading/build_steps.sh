#!/usr/bin/env bash
# The build steps that record a submission's failures (cmake/build_step.cmake
# with the include check, cmake/build_record.cmake), run for real on the
# host compiler: a compile that fails, a link with a symbol defined twice, an
# include the course does not provide, a missing file. Each leaves a record
# with its exit status and first error line, passes the compiler's words
# through, and grade_report's <day>.builds quotes it; a step that succeeds
# leaves none. The symbol check (cmake/symbol_check.cmake) on a real archive:
# the exercise's own names and private helpers pass, a harness function does
# not, nor a call of a function the day forbids.
#   build_steps.sh REPO_ROOT GRADE_REPORT
set -uo pipefail
export LC_ALL=C  # the compilers' plain quotes
source "$(dirname "$0")/script_test.sh"
report=$2
records="$work/records"
step() {  # record, day, step, target, file, command...
  cmake "-DRECORD=$records/$1" "-DDAY=$2" "-DSTEP=$3" "-DTARGET=$4" "-DFILE=$5" -P "$root/cmake/build_step.cmake" \
    -- "${@:6}"
}
field() {  # record, column name: the value in its row
  awk -F'\t' -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR == 2 { print $c }' \
    "$records/$1"
}
cd "$work"

# A compile that fails: the first error line, not the "In function" line before it.
printf 'int f() {\n  return foo();\n}\n' >bad.cpp
step day38/compile.tsv day38 compile day38_submission_bad "$work/bad.cpp" c++ -c bad.cpp -o bad.o 2>compile.err &&
  fail "a failed compile exited 0"
[ "$(field day38/compile.tsv step)" = compile ] || fail "compile record: step $(field day38/compile.tsv step)"
[ "$(field day38/compile.tsv status)" = 1 ] ||
  fail "compile record: status $(field day38/compile.tsv status), want c++'s 1"
[[ "$(field day38/compile.tsv error)" == "bad.cpp:2:"*"error: 'foo' was not declared"* ]] ||
  fail "compile record: error '$(field day38/compile.tsv error)'"
grep -q "In function 'int f()'" compile.err || fail "the compiler's own words did not pass through: $(cat compile.err)"

# A unit that failed and then was fixed: its record goes.
printf 'int g() { return foo(); }\n' >fixed.cpp
step day38/fixed.tsv day38 compile day38_submission_fixed "$work/fixed.cpp" c++ -c fixed.cpp -o fixed.o 2>/dev/null
[ -e "$records/day38/fixed.tsv" ] || fail "a failed compile left no record"
printf 'int g() { return 1; }\n' >fixed.cpp
step day38/fixed.tsv day38 compile day38_submission_fixed "$work/fixed.cpp" c++ -c fixed.cpp -o fixed.o ||
  fail "a good compile failed"
[ ! -e "$records/day38/fixed.tsv" ] || fail "a compile that succeeded left its old record"

# A link with a symbol defined twice.
printf 'int twice() { return 1; }\n' >a.cpp
printf 'int twice() { return 2; }\nint main() { return twice(); }\n' >b.cpp
c++ -c a.cpp -o a.o && c++ -c b.cpp -o b.o || fail "the link's objects do not compile"
step day52/link.tsv day52 link day52_runner_submission "" c++ a.o b.o -o runner 2>/dev/null &&
  fail "a failed link exited 0"
[[ "$(field day52/link.tsv error)" == *"multiple definition of"*twice* ]] ||
  fail "link record: error '$(field day52/link.tsv error)'"

# An include the course does not provide, found in the dependency file the
# compile itself wrote (a stand-in compiler writes it where -MF says and
# makes the object): the object goes, the record says "includes".
mkdir -p course solution student
printf '#!/bin/sh\n# stand-in: ... -MF <depfile> ... -o <object>\nwhile [ $# -gt 0 ]; do\n  case "$1" in -MF) dep=$2; shift ;; -o) obj=$2; shift ;; esac\n  shift\ndone\necho "unit.o: %s/student/unit.cu %s/course/a.h %s/solution/sol.cu" >"$dep"\n: >"$obj"\n' \
  "$work" "$work" "$work" >cc.sh
chmod +x cc.sh
touch student/unit.cu course/a.h solution/sol.cu
includes() {  # record, denied: the compile through the launcher with the course's rules
  cmake "-DRECORD=$records/$1" -DDAY=msw -DSTEP=compile -DTARGET=msw_submission_unit "-DFILE=$work/student/unit.cu" \
    "-DALLOWED=$work/course|$work/student" "-DDENIED=$2" -P "$root/cmake/build_step.cmake" -- \
    "$work/cc.sh" -MD -MF unit.o.d -c student/unit.cu -o unit.o
}
includes msw/includes.tsv "$work/solution" 2>/dev/null && fail "the include check passed a solution"
[ "$(field msw/includes.tsv step)" = includes ] || fail "include record: step $(field msw/includes.tsv step)"
want="$work/student/unit.cu: error: it includes $work/solution/sol.cu, which the course does not provide"
[[ "$(field msw/includes.tsv error)" == "$want"* ]] ||
  fail "include record: error '$(field msw/includes.tsv error)'"
[ ! -e unit.o ] || fail "a refused compile left its object for the link"
# The same compile with the solution's folder allowed: no record, the object stays.
mkdir -p allowed-records
cmake "-DRECORD=$work/allowed-records/ok.tsv" -DDAY=msw -DSTEP=compile -DTARGET=msw_submission_unit \
  "-DFILE=$work/student/unit.cu" "-DALLOWED=$work/course|$work/student|$work/solution" -DDENIED= \
  -P "$root/cmake/build_step.cmake" -- "$work/cc.sh" -MD -MF unit.o.d -c student/unit.cu -o unit.o ||
  fail "the include check refused allowed includes"
[ -e unit.o ] && [ ! -e "$work/allowed-records/ok.tsv" ] || fail "an allowed compile lost its object or left a record"

# A missing file, as the configure and the grade target write it.
cat >missing.cmake <<CMAKE
include("$root/cmake/build_record.cmake")
grading_write_build_record("$records/day34/missing.tsv" day34 missing day34_runner_submission
                           "/subs/x/day34/heat.cu" "" "")
CMAKE
cmake -P missing.cmake || fail "writing a missing-file record failed"

# The report reads every record: each day's build gate quotes its own.
printf 'id\tday\tpoints\tvisibility\ttests\ttitle\n' >gates.tsv
for day in day34 day38 day52 msw; do printf '%s.x\t%s\t1\tvisible\tX/*\tx\n' "$day" "$day" >>gates.tsv; done
"$report" --gates gates.tsv --build-records "$records" >report.txt
grep -qE "^day38\.builds +FAIL +0/0 +bad\.cpp:2:[0-9]+: error: 'foo' was not declared" report.txt ||
  fail "day38.builds: $(cat report.txt)"
grep -qE "^day52\.builds +FAIL +0/0 +.*multiple definition of" report.txt || fail "day52.builds: $(cat report.txt)"
grep -qE "^day52\.x +FAIL +0/1 +does not link: see day52.builds" report.txt || fail "day52.x: $(cat report.txt)"
grep -qE "^msw\.builds +FAIL +0/0 +.*error: it includes $work/solution/sol.cu" report.txt ||
  fail "msw.builds: $(cat report.txt)"
grep -qE "^day34\.builds +FAIL +0/0 +the submission file /subs/x/day34/heat.cu is missing" report.txt ||
  fail "day34.builds: $(cat report.txt)"
grep -qE "^day34\.x +FAIL +0/1 +the submission file is missing: see day34.builds" report.txt ||
  fail "day34.x: $(cat report.txt)"

# The symbol check: an archive defining only the exercise (and what no other
# file can reach) passes and leaves no record; one that also defines a
# harness function fails, named, and the report quotes it.
symbols() {  # archive, record: the check with day38's exercise declared
  cmake -DNM=nm "-DARCHIVE=$1" "-DFILE=$work/edge.cu" "-DALLOWED=day38::walkEdgePerThread" \
    "-DSTAMP=$work/$1.symbols" "-DRECORD=$2" -DDAY=day38 -DTARGET=day38_submission_edge \
    -P "$root/cmake/symbol_check.cmake"
}
cat >own.cpp <<'CPP'
#include <string>
namespace day38 {
namespace { int helper(int x) { return x + 1; } }
static int other(int x) { return x * 2; }
int walkEdgePerThread(int x) { return helper(other(x)) + static_cast<int>(std::to_string(x).size()); }
}
CPP
printf 'namespace grading { void breadcrumb(int) {} }\nnamespace day38 { int walkEdgePerThread(int x) { return x; } }\n' \
  >impostor.cpp
c++ -c own.cpp -o own.o && c++ -c impostor.cpp -o impostor.o && ar rc own.a own.o && ar rc impostor.a impostor.o ||
  fail "the symbol check's archives do not build"
symbols own.a "$work/symbols-records/day38/own.tsv" >/dev/null 2>&1 || fail "the symbol check refused the exercise alone"
[ ! -e "$work/symbols-records/day38/own.tsv" ] || fail "a passing symbol check left a record"
symbols impostor.a "$work/symbols-records/day38/symbols.tsv" >/dev/null 2>&1 &&
  fail "the symbol check passed a harness function"
[[ "$(field ../symbols-records/day38/symbols.tsv error)" == \
   "$work/edge.cu: error: it defines grading::breadcrumb(int), which the exercise does not declare"* ]] ||
  fail "symbols record: error '$(field ../symbols-records/day38/symbols.tsv error)'"
"$report" --gates gates.tsv --build-records "$work/symbols-records" >symbols-report.txt
grep -qE "^day38\.builds +FAIL +0/0 +.*error: it defines grading::breadcrumb\(int\)" symbols-report.txt ||
  fail "day38.builds on a symbol: $(cat symbols-report.txt)"
# A call the day forbids (a stream the runner's events do not wait for) is
# refused the same way, named, while calls of other functions pass.
printf 'extern "C" int cudaStreamCreateWithFlags(void**, unsigned);\nextern "C" int cudaStreamCreate(void**);\nnamespace day38 { int walkEdgePerThread(int x) { void* s; cudaStreamCreate(&s); return cudaStreamCreateWithFlags(&s, 1u) + x; } }\n' \
  >side_stream.cpp
c++ -c side_stream.cpp -o side_stream.o && ar rc side_stream.a side_stream.o || fail "the side-stream archive does not build"
forbidding() {  # archive, record, forbidden functions
  cmake -DNM=nm "-DARCHIVE=$1" "-DFILE=$work/edge.cu" "-DALLOWED=day38::walkEdgePerThread" "-DFORBIDDEN=$3" \
    "-DSTAMP=$work/$1.symbols" "-DRECORD=$2" -DDAY=day38 -DTARGET=day38_submission_edge \
    -P "$root/cmake/symbol_check.cmake"
}
forbidding side_stream.a "$work/symbols-records/day38/allowed.tsv" "dlsym;cudaLaunchHostFunc" >/dev/null 2>&1 ||
  fail "the symbol check refused calls the day allows"
forbidding side_stream.a "$work/symbols-records/day38/calls.tsv" "dlsym;cudaStreamCreateWithFlags" >/dev/null 2>&1 &&
  fail "the symbol check passed a forbidden call"
[[ "$(field ../symbols-records/day38/calls.tsv error)" == \
   "$work/edge.cu: error: it calls cudaStreamCreateWithFlags, which day38's exercise may not: its work runs on the legacy default stream"* ]] ||
  fail "calls record: error '$(field ../symbols-records/day38/calls.tsv error)'"
finish "build steps record compile, link, include, symbol and missing-file failures for the report"
