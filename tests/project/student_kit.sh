#!/usr/bin/env bash
# The student kit: written by the student-kit target, it holds the student's
# README and no file of any day's solution/, no planted bug, no hostile
# submission, none of the tests, the lab, the performance notes or the
# instructor's pages; it configures and builds with no GPU; its reference
# suites skip for want of solutions.
source "$(dirname "$0")/common.sh"
kit="$GRADING_TEST_BUILD/student-kit"
cmake --build "$GRADING_TEST_BUILD" --target student-kit > "$work/kit-write.log"
[[ -f "$kit/README.md" && -d "$kit/exercises" && -d "$kit/harness" ]] || fail "the kit lacks README.md, exercises/ or harness/"

# Its page is the student's: what to edit, the command, the verdict and the
# contract, and nothing of the instructor's tree (tests, lab, CI, docs).
cmp -s "$kit/README.md" "$GRADING_TEST_SOURCE/exercises/README.md" || fail "the kit's README.md is not the student's"
[[ ! -e "$kit/grading.md" ]] || fail "the kit holds grading.md, the instructor's reference"
mentions=$(grep -nE '(^|[^a-z_])(tests|lab|docs|\.ci)/' "$kit"/*.md || true)
[[ -z "$mentions" ]] || fail "the kit's pages mention the instructor's folders: $mentions"

# No solution, by name or by content.
leaks=$(cd "$kit" && find . \( -path './reference/*/solution*' -o -name plants.cmake -o -path '*/hostile*' -o -path './tests*' \
                                -o -path './lab*' -o -path './docs*' -o -path '*/bench/*' -o -path './harness/tools*' \
                                -o -name grade_class.sh -o -name grading.md \) -print)
[[ -z "$leaks" ]] || fail "the kit holds instructor files: $leaks"
declare -A solution_hashes
while IFS= read -r f; do
  solution_hashes[$(sha256sum < "$f" | cut -c1-64)]="$f"
done < <(find "$GRADING_TEST_SOURCE/reference" -path '*/solution/*' -type f)
((${#solution_hashes[@]} > 0)) || fail "found no solution file in the source tree to compare with"
while IFS= read -r f; do
  h=$(sha256sum < "$f" | cut -c1-64)
  [[ -z "${solution_hashes[$h]:-}" ]] || fail "the kit's $f is the solution ${solution_hashes[$h]}"
done < <(find "$kit" -type f)
echo "no solution in the kit (${#solution_hashes[@]} solution files compared by content)"

# It configures and builds here, with no GPU.
mapfile -t args < <(configure_args)
cmake -S "$kit" -B "$work/kit-build" "${args[@]}" > "$work/kit-configure.log" 2>&1 || { tail -30 "$work/kit-configure.log"; fail "the kit does not configure"; }
cmake --build "$work/kit-build" > "$work/kit-build.log" 2>&1 || { grep -E "error|FAILED" "$work/kit-build.log" | head -20; fail "the kit does not build"; }
echo "the kit configures and builds"

# Its reference suites are there, and skip saying why.
ctest --test-dir "$work/kit-build" -L reference -V > "$work/kit-reference.log" 2>&1 || true
grep -q "no instructor solutions in this tree" "$work/kit-reference.log" || fail "the kit's reference suites do not say why they skip"
if grep -E "^[0-9]+/[0-9]+ Test +#[0-9]+: reference\..*(Passed|Failed)" "$work/kit-reference.log"; then
  fail "a reference suite of the kit ran instead of skipping"
fi
echo "the kit's reference suites skip: no instructor solutions in this tree"
