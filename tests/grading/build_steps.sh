#!/usr/bin/env bash
# The build steps that record a submission's failures (cmake/build_step.cmake
# with the include check, cmake/build_record.cmake), run for real on the
# host compiler: a compile that fails, a link with a symbol defined twice, an
# include the course does not provide, a missing file. Each leaves a record
# with its exit status and first error line, passes the compiler's words
# through, and grade_report's <day>.builds quotes it; a step that succeeds
# leaves none. The seal (cmake/symbol_check.cmake) on real archives: the
# exercise's own names and private helpers pass, and its other definitions
# are renamed so a weak one replaces nothing; a harness function does not
# pass, nor a call the day forbids, nor a host function under a kernel's
# name; a call the day judges by its arguments goes to the checked version.
#   build_steps.sh REPO_ROOT GRADE_REPORT GRADING_SEAL OBJCOPY [NVCC]
set -uo pipefail
export LC_ALL=C  # the compilers' plain quotes
source "$(dirname "$0")/script_test.sh"
report=$2
seal_tool=$3
objcopy=$4
nvcc=${5:-}
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

# The seal (cmake/symbol_check.cmake, harness/seal): an archive defining only
# the exercise (and what no other file can reach) passes, leaves no record,
# and its own definitions are renamed; one that also defines a harness
# function fails, named, and the report quotes it.
seal() {  # archive, record, [exports], [kernels], [forbidden], [checked]: day38's rules by default
  cmake "-DSEAL=$seal_tool" "-DOBJCOPY=$objcopy" "-DARCHIVE=$1" "-DSEALED=$work/sealed-$1" "-DFILE=$work/edge.cu" \
    "-DEXPORTS=${3:-day38::walkEdgePerThread}" "-DKERNELS=${4:-}" "-DFORBIDDEN=${5:-}" "-DCHECKED=${6:-}" \
    "-DRECORD=$2" -DDAY=day38 -DTARGET=day38_submission_edge -P "$root/cmake/symbol_check.cmake"
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
  fail "the seal's archives do not build"
seal own.a "$work/symbols-records/day38/own.tsv" >/dev/null 2>&1 || fail "the seal refused the exercise alone"
[ ! -e "$work/symbols-records/day38/own.tsv" ] || fail "a passing seal left a record"
nm sealed-own.a | grep -q ' T _ZN5day3817walkEdgePerThreadEi$' || fail "the sealed archive lost the exercise's name"
nm sealed-own.a | grep -qE ' W __grading_day38_submission_edge__ZN' ||
  fail "the sealed archive kept its template instantiations' names: $(nm sealed-own.a | grep ' W ' | head -3)"
seal impostor.a "$work/symbols-records/day38/symbols.tsv" >/dev/null 2>&1 && fail "the seal passed a harness function"
[[ "$(field ../symbols-records/day38/symbols.tsv error)" == \
   "$work/edge.cu: error: it defines grading::breadcrumb(int), which the exercise does not declare"* ]] ||
  fail "symbols record: error '$(field ../symbols-records/day38/symbols.tsv error)'"
[ ! -e sealed-impostor.a ] || fail "a refused unit left a sealed archive to link"
"$report" --gates gates.tsv --build-records "$work/symbols-records" >symbols-report.txt
grep -qE "^day38\.builds +FAIL +0/0 +.*error: it defines grading::breadcrumb\(int\)" symbols-report.txt ||
  fail "day38.builds on a symbol: $(cat symbols-report.txt)"

# A weak definition of a library function (sysconf) replaces nothing once
# sealed: a program linking the whole archive still gets the C library's.
printf '#include <unistd.h>\nextern "C" __attribute__((weak)) long sysconf(int) { return 7; }\nnamespace day38 { int walkEdgePerThread(int x) { return static_cast<int>(sysconf(x)); } }\n' \
  >weak_library.cpp
printf '#include <unistd.h>\n#include <cstdio>\nint main() { std::printf("%%ld\\n", sysconf(_SC_PAGESIZE)); }\n' >main.cpp
c++ -c weak_library.cpp -o weak_library.o && ar rc weak_library.a weak_library.o && c++ -c main.cpp -o main.o ||
  fail "the weak-definition archive does not build"
c++ main.o -Wl,--whole-archive weak_library.a -Wl,--no-whole-archive -o unsealed && [ "$(./unsealed)" = 7 ] ||
  fail "the unsealed weak definition did not replace sysconf, so this check shows nothing"
seal weak_library.a "$work/symbols-records/day38/weak.tsv" >/dev/null 2>&1 || fail "the seal refused a weak definition"
c++ main.o -Wl,--whole-archive sealed-weak_library.a -Wl,--no-whole-archive -o sealed && [ "$(./sealed)" != 7 ] ||
  fail "a sealed weak definition of sysconf still replaced the C library's"

# Calls: one the day refuses for every use stops the build, named; one it
# judges by its arguments goes to the runner's checked version.
printf 'extern "C" int cuStreamCreate(void**, unsigned);\nextern "C" int cudaStreamCreateWithFlags(void**, unsigned);\nnamespace day38 { int walkEdgePerThread(int x) { void* s; return cudaStreamCreateWithFlags(&s, 1u) + cuStreamCreate(&s, 0u) + x; } }\n' \
  >streams.cpp
c++ -c streams.cpp -o streams.o && ar rc streams.a streams.o || fail "the streams archive does not build"
seal streams.a "$work/symbols-records/day38/calls.tsv" "" "" "cuStreamCreate;cudaLaunchHostFunc" \
  "cudaStreamCreateWithFlags" >/dev/null 2>&1 && fail "the seal passed a forbidden call"
[[ "$(field ../symbols-records/day38/calls.tsv error)" == \
   "$work/edge.cu: error: it calls cuStreamCreate, which day38's exercise may not call at all"* ]] ||
  fail "calls record: error '$(field ../symbols-records/day38/calls.tsv error)'"
seal streams.a "$work/symbols-records/day38/checked.tsv" "" "" "cudaLaunchHostFunc" "cudaStreamCreateWithFlags" \
  >/dev/null 2>&1 || fail "the seal refused a call the day judges by its arguments"
nm sealed-streams.a | grep -q ' U grading_checked_cudaStreamCreateWithFlags$' &&
  ! nm sealed-streams.a | grep -q ' U cudaStreamCreateWithFlags$' ||
  fail "the checked call was not sent to the runner's version: $(nm sealed-streams.a)"

# Kernels: an exercise kernel must be device code (a kernel in the unit's
# fatbin); a host function under its name is refused, named.
if [ -n "$nvcc" ]; then
  printf 'namespace day38 { __global__ void walkEdgePerThread(int* o) { o[threadIdx.x] = 1; } }\n' >kernel.cu
  printf 'namespace day38 { void walkEdgePerThread(int* o) { o[0] = 1; } __global__ void other(int* o) { o[0] = 2; } }\n' \
    >host_kernel.cu
  "$nvcc" --no-compress -c kernel.cu -o kernel.o && "$nvcc" --no-compress -c host_kernel.cu -o host_kernel.o &&
    ar rc kernel.a kernel.o && ar rc host_kernel.a host_kernel.o || fail "the kernel archives do not build"
  seal kernel.a "$work/symbols-records/day38/kernel.tsv" "" day38::walkEdgePerThread >/dev/null 2>&1 ||
    fail "the seal refused a kernel: $(cat "$work/symbols-records/day38/kernel.tsv" 2>/dev/null)"
  seal host_kernel.a "$work/symbols-records/day38/host.tsv" "day38::walkEdgePerThread;day38::other" \
    day38::walkEdgePerThread >/dev/null 2>&1 && fail "the seal passed a host function under a kernel's name"
  [[ "$(field ../symbols-records/day38/host.tsv error)" == \
     "$work/edge.cu: error: it defines day38::walkEdgePerThread as a host function, not a kernel"* ]] ||
    fail "host-kernel record: error '$(field ../symbols-records/day38/host.tsv error)'"
fi
# The compile sandbox: a compile that pulls in a file from outside what it
# may read (an assembler's .incbin) fails, and its record names the file;
# the same file in the student's own folder is there to read.
bwrap=$(command -v bwrap || true)
if [ -n "$bwrap" ] && "$bwrap" --die-with-parent --unshare-all --ro-bind / / true 2>/dev/null; then
  mkdir -p jail/student jail/outside jail/objects
  echo "the instructor's" >jail/outside/answers.bin
  cp jail/outside/answers.bin jail/student/own.bin
  for name in outside student; do
    file=$([ $name = outside ] && echo "$work/jail/outside/answers.bin" || echo "$work/jail/student/own.bin")
    printf 'asm(".section .rodata\\n.incbin \\"%s\\"\\n.previous\\n");\nint f() { return 1; }\n' "$file" \
      >"jail/student/$name.cpp"
  done
  sandboxed() {  # record, source: the compile as a submission's, in the sandbox
    cmake "-DRECORD=$work/jail-records/$1" -DDAY=day38 -DSTEP=compile -DTARGET=day38_submission_edge "-DFILE=$work/jail/student/$2" \
      "-DALLOWED=$work/jail/student|/usr/include|/usr/lib/gcc" -DDENIED= "-DSANDBOX=$bwrap" -P "$root/cmake/build_step.cmake" -- \
      c++ -MD -MF "jail/objects/$2.d" -c "jail/student/$2" -o "jail/objects/$2.o"
  }
  sandboxed day38/incbin.tsv outside.cpp 2>/dev/null && fail "a sandboxed compile read a file outside its folders"
  [[ "$(field ../jail-records/day38/incbin.tsv error)" == *"Error: file not found: $work/jail/outside/answers.bin"* ]] ||
    fail "incbin record: error '$(field ../jail-records/day38/incbin.tsv error)'"
  sandboxed day38/own.tsv student.cpp >/dev/null 2>&1 || fail "a sandboxed compile could not read its own folder"
fi

finish "build steps record compile, link, include, symbol and missing-file failures for the report"
