#!/usr/bin/env bash
# harness/tools/new-day: a scaffolded day is ten files and no CMake line
# outside its four folders; it builds and its host tests pass. Then the grade
# target on it never grades a stale runner: a submission that stops
# compiling fails <day>.builds with the compiler's error, and a missing
# submission folder fails it naming the path.
source "$(dirname "$0")/common.sh"
repo="$work/scaffold-repo"
bare_repo "$repo"
before=$(cd "$repo" && find . -type f | sort)
"$repo/harness/tools/new-day" zdemo --root "$repo" > "$work/new-day.log"
created=$(cd "$repo" && comm -13 <(echo "$before") <(find . -type f | sort))
count=$(echo "$created" | wc -l)
echo "new-day created $count files:"; echo "$created"
((count <= 10)) || fail "new-day created $count files, want at most 10"
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
grep -q "planted.zdemo.one_pass_only" <(ctest --test-dir "$build" -N) || fail "the scaffold's planted bug is not registered"
echo "the scaffolded day builds; its host tests pass"

# A good submission first, so a runner exists that a stale grade could reuse.
subs="$work/submissions"
rm -rf "$subs" && mkdir -p "$subs/good/zdemo" "$subs/broken/zdemo"
cp "$repo/reference/zdemo/solution/zdemo.cu" "$subs/good/zdemo/zdemo.cu"
cmake "$build" -DGRADING_SUBMISSION_DIR="$subs/good" > /dev/null
cmake --build "$build" --target grade > "$work/grade-good.log" 2>&1 || true
grep -qE "^zdemo\.builds +PASS" "$work/grade-good.log" || { cat "$work/grade-good.log"; fail "the good submission's build gate did not pass"; }
[[ -x "$build/runners/zdemo_runner_submission" ]] || fail "no submission runner after a good build"

# Without the sandbox, nothing of the submission runs: the reason once, no
# gate FAIL, and the grade ends "could not grade on this machine".
GRADING_BWRAP=/nonexistent/bwrap cmake --build "$build" --target grade > "$work/grade-no-sandbox.log" 2>&1 &&
  fail "grade passed with no sandbox to run the submission in"
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

# A submission that includes the instructor solution does not build, and says why.
mkdir -p "$subs/borrower/zdemo"
printf '#include "%s"\n' "$repo/reference/zdemo/solution/zdemo.cu" > "$subs/borrower/zdemo/zdemo.cu"
cmake "$build" -DGRADING_SUBMISSION_DIR="$subs/borrower" > /dev/null
cmake --build "$build" --target grade > "$work/grade-borrower.log" 2>&1 && fail "grade passed a submission that includes the solution"
grep -qE "^zdemo\.builds +FAIL +0/0 +.*error: it includes $repo/reference/zdemo/solution/zdemo.cu, which the course does not provide" \
  "$work/grade-borrower.log" || { cat "$work/grade-borrower.log"; fail "zdemo.builds does not name the included solution"; }
echo "a submission that includes the solution: zdemo.builds FAIL naming it"

# The same include behind a define the Release build sets: the check reads
# what the compile itself included, so it is caught all the same.
mkdir -p "$subs/hider/zdemo"
printf '#ifdef NDEBUG\n#include "%s"\n#endif\n' "$repo/reference/zdemo/solution/zdemo.cu" > "$subs/hider/zdemo/zdemo.cu"
cmake "$build" -DGRADING_SUBMISSION_DIR="$subs/hider" > /dev/null
cmake --build "$build" --target grade > "$work/grade-hider.log" 2>&1 && fail "grade passed an include hidden behind NDEBUG"
grep -qE "^zdemo\.builds +FAIL +0/0 +.*error: it includes $repo/reference/zdemo/solution/zdemo.cu, which the course does not provide" \
  "$work/grade-hider.log" || { cat "$work/grade-hider.log"; fail "zdemo.builds does not name the include behind NDEBUG"; }
echo "an include behind #ifdef NDEBUG: zdemo.builds FAIL naming it"

# A submission that defines a harness function, to stand in for it at link
# time, does not build, and the gate names the symbol.
mkdir -p "$subs/impostor/zdemo"
cp "$subs/good/zdemo/zdemo.cu" "$subs/impostor/zdemo/zdemo.cu"
printf '#include <string>\nnamespace grading { void breadcrumb(const std::string&) {} }\n' >> "$subs/impostor/zdemo/zdemo.cu"
cmake "$build" -DGRADING_SUBMISSION_DIR="$subs/impostor" > /dev/null
cmake --build "$build" --target grade > "$work/grade-impostor.log" 2>&1 && fail "grade passed a submission that defines a harness function"
grep -qE "^zdemo\.builds +FAIL +0/0 +.*error: it defines grading::breadcrumb\(.*which the exercise does not declare" \
  "$work/grade-impostor.log" || { cat "$work/grade-impostor.log"; fail "zdemo.builds does not name the harness symbol"; }
echo "a submission that defines a harness function: zdemo.builds FAIL naming it"
