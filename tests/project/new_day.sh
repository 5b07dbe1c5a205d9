#!/usr/bin/env bash
# harness/tools/new-day: a scaffolded day is eleven files and no CMake line
# outside its four folders; it builds, its host tests pass, and its planted
# bug, correct variant, report and chart are registered. Then the grade
# target on it: without the sandbox it grades nothing and says why once;
# it never grades a stale runner (a submission that stops compiling fails
# <day>.builds with the compiler's error, a missing submission folder fails
# it naming the path); and it refuses, naming them, a submission that
# includes the solution (plainly or behind #ifdef NDEBUG), defines a harness
# function, calls what the day refuses by name, or defines its kernel as a
# host function.
source "$(dirname "$0")/common.sh"
repo="$work/scaffold-repo"
bare_repo "$repo"
before=$(cd "$repo" && find . -type f | sort)
"$repo/harness/tools/new-day" zdemo --root "$repo" > "$work/new-day.log"
created=$(cd "$repo" && comm -13 <(echo "$before") <(find . -type f | sort))
count=$(echo "$created" | wc -l)
echo "new-day created $count files:"; echo "$created"
((count <= 11)) || fail "new-day created $count files, want at most 11"
outside=$(echo "$created" | grep -vE '^\./(reference|exercises|harness|tests)/zdemo/' || true)
[[ -z "$outside" ]] || fail "new-day wrote outside the day's folders: $outside"

mapfile -t args < <(configure_args)
build="$work/scaffold-build"
rm -rf "$build"
cmake -S "$repo" -B "$build" "${args[@]}" -DGRADING_DAYS=zdemo > "$work/scaffold-configure.log" 2>&1 ||
  { tail -30 "$work/scaffold-configure.log"; fail "the scaffolded day does not configure"; }
cmake --build "$build" > "$work/scaffold-build.log" 2>&1 ||
  { grep -E "error|FAILED" "$work/scaffold-build.log" | head -20; fail "the scaffolded day does not build"; }
ctest --test-dir "$build" -L harness --output-on-failure > "$work/scaffold-host-tests.log" 2>&1 ||
  { tail -30 "$work/scaffold-host-tests.log"; fail "the scaffolded day's host tests fail"; }
grep -q "100% tests passed" "$work/scaffold-host-tests.log" || fail "no host test of the scaffolded day ran"
registered=$(ctest --test-dir "$build" -N)
grep -q "planted.zdemo.one_pass_only" <<<"$registered" || fail "the scaffold's planted bug is not registered"
grep -q "hostile.zdemo.one_element_a_thread" <<<"$registered" || fail "the scaffold's correct variant is not registered"
grep -q "reference.zdemo.report" <<<"$registered" || fail "the scaffold's report is not registered"
grep -q "zdemo-bandwidth" "$build/charts.tsv" || fail "the scaffold's chart is not in charts.tsv"
echo "the scaffolded day builds; its host tests pass"

# A good submission first, so a runner exists that a stale grade could reuse.
subs="$work/submissions"
rm -rf "$subs" && mkdir -p "$subs/good/zdemo" "$subs/broken/zdemo"
cp "$repo/reference/zdemo/solution/zdemo.cu" "$subs/good/zdemo/zdemo.cu"
cmake "$build" -DGRADING_SUBMISSION_DIR="$subs/good" > /dev/null
cmake --build "$build" --target grade > "$work/grade-good.log" 2>&1 || true
grep -qE "^zdemo\.builds +PASS" "$work/grade-good.log" || { cat "$work/grade-good.log"; fail "the good submission's build gate did not pass"; }
if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
  ctest --test-dir "$build" -L '^grade$' > /dev/null 2>&1 || fail "the grade workflow's last step failed after a grading"
fi
[[ -x "$build/runners/zdemo_runner_submission" ]] || fail "no submission runner after a good build"

# Without the sandbox, nothing of the submission runs: the reason once, no
# gate FAIL, and the grade ends "could not grade on this machine". The grade
# workflow's steps as `cmake --workflow --preset grade` runs them: the build
# step passes (no gate failed) and its test step fails, so the workflow
# exits 8, where a failed gate fails the build step (exit 1).
GRADING_BWRAP=/nonexistent/bwrap cmake --build "$build" --target grade > "$work/grade-no-sandbox.log" 2>&1 ||
  { cat "$work/grade-no-sandbox.log"; fail "the grade target failed its build step with no gate failed"; }
ctest --test-dir "$build" -L '^grade$' --output-on-failure >> "$work/grade-no-sandbox.log" 2>&1 &&
  { cat "$work/grade-no-sandbox.log"; fail "the grade workflow's last step passed with nothing graded"; }
[[ $(grep -c "the sandbox cannot start" "$work/grade-no-sandbox.log") -eq 1 ]] ||
  { cat "$work/grade-no-sandbox.log"; fail "the sandbox's reason is not said exactly once"; }
grep -qE "^zdemo\.values +NOT RUN +0/1 +not run on this machine" "$work/grade-no-sandbox.log" &&
  ! grep -qE "^zdemo\.[a-z_]+ +FAIL" "$work/grade-no-sandbox.log" &&
  grep -q "could not grade on this machine" "$work/grade-no-sandbox.log" ||
  { cat "$work/grade-no-sandbox.log"; fail "no sandbox did not read NOT RUN / could not grade"; }
echo "no sandbox: the reason once, zdemo.values NOT RUN, could not grade on this machine"

cp "$subs/good/zdemo/zdemo.cu" "$subs/broken/zdemo/zdemo.cu"
printf '\nthis is not C++\n' >> "$subs/broken/zdemo/zdemo.cu"
cmake "$build" -DGRADING_SUBMISSION_DIR="$subs/broken" > /dev/null
cmake --build "$build" --target grade > "$work/grade-broken.log" 2>&1 && fail "grade passed a submission that does not compile"
grep -qE "^zdemo\.builds +FAIL +0/0 +.*zdemo\.cu\([0-9]+\): error" "$work/grade-broken.log" ||
  { cat "$work/grade-broken.log"; fail "zdemo.builds does not fail with the compiler's error"; }
grep -qE "^zdemo\.values +FAIL +0/1 +does not compile" "$work/grade-broken.log" ||
  { cat "$work/grade-broken.log"; fail "the gate does not say the submission does not compile"; }
[[ ! -e "$build/runners/zdemo_runner_submission" ]] || fail "the good submission's runner was left for the broken one"
echo "a submission that stops compiling: zdemo.builds FAIL with the compiler's error"

cmake "$build" -DGRADING_SUBMISSION_DIR="$subs/nobody" > "$work/configure-missing.log" 2>&1
cmake --build "$build" --target grade > "$work/grade-missing.log" 2>&1 && fail "grade passed a missing submission"
grep -qE "^zdemo\.builds +FAIL +0/0 +.*$subs/nobody/zdemo/zdemo\.cu is missing" "$work/grade-missing.log" ||
  { cat "$work/grade-missing.log"; fail "zdemo.builds does not name the missing file"; }
echo "a missing submission folder: zdemo.builds FAIL naming $subs/nobody/zdemo/zdemo.cu"

# Submissions the build refuses, each named by zdemo.builds: the grade
# target must fail with the refusal's words.
refused() {  # folder under $subs (zdemo/zdemo.cu written), what it does, the gate's words (regex)
  cmake "$build" -DGRADING_SUBMISSION_DIR="$subs/$1" > /dev/null
  cmake --build "$build" --target grade > "$work/grade-$1.log" 2>&1 && fail "grade passed $2"
  grep -qE "^zdemo\.builds +FAIL +0/0 +.*$3" "$work/grade-$1.log" ||
    { cat "$work/grade-$1.log"; fail "zdemo.builds does not name what is wrong with $2"; }
  echo "$2: zdemo.builds FAIL naming it"
}
solution="$repo/reference/zdemo/solution/zdemo.cu"
# In the compile sandbox the solution is not there to include (the compile
# fails naming it); without one, the include check refuses it, named.
included="(error: it includes $solution, which the course does not provide|$solution: No such file or directory)"
mkdir -p "$subs"/{borrower,hider,reacher,impostor}/zdemo

# The instructor solution, included.
printf '#include "%s"\n' "$solution" > "$subs/borrower/zdemo/zdemo.cu"
refused borrower "a submission that includes the solution" "$included"

# The same include behind a define the Release build sets: the check reads
# what the compile itself included, so it is caught all the same.
printf '#ifdef NDEBUG\n#include "%s"\n#endif\n' "$solution" > "$subs/hider/zdemo/zdemo.cu"
refused hider "an include behind #ifdef NDEBUG" "$included"

# The solution by a path relative to the course's headers: the student's
# include path holds the headers alone, so it is not there to find.
printf '#include "solution/zdemo.cu"\n' > "$subs/reacher/zdemo/zdemo.cu"
refused reacher "an include of solution/ relative to the course's headers" "solution/zdemo.cu: No such file"

# A harness function defined, to stand in for it at link time.
cp "$subs/good/zdemo/zdemo.cu" "$subs/impostor/zdemo/zdemo.cu"
printf '#include <string>\nnamespace grading { void breadcrumb(const std::string&) {} }\n' >> "$subs/impostor/zdemo/zdemo.cu"
refused impostor "a submission that defines a harness function" \
  "error: it defines grading::breadcrumb\(.*which the exercise does not declare"

# A host callback: no use of it keeps the day's contract, so the day refuses
# the call by name (EXERCISE_FORBIDS).
mkdir -p "$subs/callback/zdemo"
cp "$subs/good/zdemo/zdemo.cu" "$subs/callback/zdemo/zdemo.cu"
printf '#include <cuda_runtime.h>\nstatic void later(void*) {}\n[[gnu::used]] static void queueLater() { cudaLaunchHostFunc(0, later, nullptr); }\n' \
  >> "$subs/callback/zdemo/zdemo.cu"
refused callback "a submission that queues a host callback" \
  "error: it calls cudaLaunchHostFunc, which zdemo's exercise may not call at all"

# The exercise's kernel as a host function: the course's <<<>>> would run it
# on the CPU. The seal finds no kernel of that name in the device code.
mkdir -p "$subs/hostkernel/zdemo"
cat > "$subs/hostkernel/zdemo/zdemo.cu" <<'CU'
#include <cstddef>
namespace zdemo {
void scale(const float* in, float* out, size_t n, float a) {
    for (size_t i = 0; i < n; ++i) out[i] = a * in[i];
}
void launchScale(const float* in, float* out, size_t n, float a) { scale(in, out, n, a); }
}  // namespace zdemo
CU
refused hostkernel "a submission whose kernel is a host function" \
  "error: it defines zdemo::scale as a host function, not a kernel"
