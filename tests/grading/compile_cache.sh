#!/usr/bin/env bash
# A class's compile cache (cmake/compile_cache.cmake, through
# cmake/build_step.cmake and the compile sandbox, on the host compiler): a
# student whose folder holds the same files as an earlier one's, under the
# same command, gets that compile's object without a compile, and a
# dependency file naming its own folder; the object names no student (its
# __FILE__ is the neutral folder's). Another file, a changed course header,
# another flag: compiled afresh. A compile that fails names the student's
# real file and leaves nothing to reuse.
#   compile_cache.sh REPO_ROOT
set -uo pipefail
export LC_ALL=C
source "$(dirname "$0")/script_test.sh"
bwrap=$(command -v bwrap || true)
if [ -z "$bwrap" ] || ! "$bwrap" --die-with-parent --unshare-all --ro-bind / / true 2>/dev/null; then
  echo "skip: no bubblewrap sandbox on this machine"
  exit 77
fi
cd "$work"
mkdir -p course objects records cache
printf 'inline int courseValue() { return 7; }\n' >course/course.h
student() {  # name, source text: the student's folder with x.cpp
  mkdir -p "class/$1/day38"
  printf '%s\n' "$2" >"class/$1/day38/x.cpp"
}
compile() {  # student, [extra flag]: its compile as a class's, stderr kept in objects/<student>.err
  cmake "-DRECORD=$work/records/$1.tsv" -DDAY=day38 -DSTEP=compile "-DTARGET=day38_$1_x" \
    "-DFILE=$work/class/$1/day38/x.cpp" "-DALLOWED=$work/course|$work/class/$1/day38|/usr/include|/usr/lib/gcc" \
    -DDENIED= "-DSANDBOX=$bwrap" -DREADABLE=/usr "-DCACHE=$work/cache" -P "$root/cmake/build_step.cmake" -- \
    c++ ${2:+"$2"} "-I$work/course" -MD -MT "objects/$1.o" -MF "objects/$1.d" -c "$work/class/$1/day38/x.cpp" \
    -o "objects/$1.o" 2>"objects/$1.err"
}
reused() { grep -q "compiled once for every folder with the same files" "objects/$1.err"; }
entries() { find cache -mindepth 1 -maxdepth 1 -type d | wc -l; }

same='#include "course.h"
const char* whereAmI() { return __FILE__; }
int value() { return courseValue(); }'
student alice "$same"
student bob "$same"
compile alice || fail "alice's compile failed: $(cat objects/alice.err)"
reused alice && fail "the first compile of a folder was reused"
[ "$(entries)" = 1 ] || fail "the cache holds $(entries) entries after one compile, want 1"
compile bob || fail "bob's compile failed: $(cat objects/bob.err)"
reused bob || fail "bob's folder, the same files as alice's, was compiled again"
cmp -s objects/alice.o objects/bob.o || fail "bob's object is not alice's"
grep -q "class/bob/day38/x.cpp" objects/bob.d || fail "bob's dependency file does not name his file: $(cat objects/bob.d)"
grep -q "alice" objects/bob.d && fail "bob's dependency file names alice's folder: $(cat objects/bob.d)"
grep -q "^objects/bob.o:" objects/bob.d || fail "bob's dependency file is not for his object: $(head -1 objects/bob.d)"
strings objects/alice.o | grep -q "^/grading-submission/x.cpp$" ||
  fail "the object's __FILE__ is not the neutral folder's: $(strings objects/alice.o | grep x.cpp)"
strings objects/alice.o | grep -q "alice" && fail "alice's object names her folder"

student carol "$same
int more() { return 1; }"
compile carol || fail "carol's compile failed: $(cat objects/carol.err)"
reused carol && fail "carol's folder, other files than alice's, was reused"
compile bob -O1 || fail "bob's compile with -O1 failed"
reused bob && fail "a compile with another flag was reused"
printf 'inline int courseValue() { return 8; }\n' >course/course.h
compile bob || fail "bob's compile after the course header changed failed"
reused bob && fail "a compile was reused after a course header it reads changed"
echo "extra" >class/bob/day38/notes.txt
student dave "$same"
compile dave && reused dave || fail "dave's folder, the same as alice's, was not reused after the header's change was compiled once"

# CMake names the object of a source outside the trees by the source's own
# path: only the source itself is seen at the neutral folder.
student gina "$same"
nested="objects/nested$work/class/gina/day38"
mkdir -p "$nested"
cmake "-DRECORD=$work/records/gina.tsv" -DDAY=day38 -DSTEP=compile -DTARGET=day38_gina_x \
  "-DFILE=$work/class/gina/day38/x.cpp" "-DALLOWED=$work/course|$work/class/gina/day38|/usr/include|/usr/lib/gcc" \
  -DDENIED= "-DSANDBOX=$bwrap" -DREADABLE=/usr "-DCACHE=$work/cache" -P "$root/cmake/build_step.cmake" -- \
  c++ -O2 "-I$work/course" -MD -MT "$nested/x.cpp.o" -MF "$nested/x.cpp.o.d" -c "$work/class/gina/day38/x.cpp" \
  -o "$nested/x.cpp.o" 2>objects/gina.err || fail "a compile whose object's path holds its folder's failed: $(cat objects/gina.err)"
[ -s "$nested/x.cpp.o" ] || fail "gina's object is not where its path says"

student erin "$same
int broken() { return undefined_name; }"
compile erin && fail "erin's compile of a file with an error exited 0"
grep -q "$work/class/erin/day38/x.cpp:4:" objects/erin.err ||
  fail "erin's error does not name her file: $(cat objects/erin.err)"
[[ "$(awk -F'\t' 'NR == 2 { print $NF }' records/erin.tsv)" == "$work/class/erin/day38/x.cpp:4:"* ]] ||
  fail "erin's record does not name her file: $(cat records/erin.tsv)"
before=$(entries)
student frank "$(cat class/erin/day38/x.cpp)"
compile frank && fail "frank's compile of erin's broken file exited 0"
[ "$(entries)" = "$before" ] || fail "a failed compile left an entry"

finish "a folder's compile is reused for the same files and command, and only then"
