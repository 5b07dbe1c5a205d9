#!/usr/bin/env bash
# Grades a demonstration class with harness/grading/grade_class.sh and checks
# every student's verdicts (lab/scripts/class-demo-verdicts.py) where a GPU ran them:
# the instructor solutions, the untouched stubs, one that does not compile,
# one with a file missing, and hostile students, each the solutions with day
# 38's file one of tests/day38/hostile. A hostile file that builds on the
# solution includes it from the student's own folder, as a student who copied
# it would (the include check refuses the instructor's folder), so its trick
# runs in the class's sandbox.
#   lab/scripts/class-demo.sh OUT_DIR [extra grade_class.sh args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/.ci/class-lib.sh"
out=$1
shift
class="$out/class"
rm -rf "$class" && mkdir -p "$class"

cp -r "$root/exercises" "$class/stub"
stage_solution "$class/reference"
# Not those caught only under a sanitizer (a "sanitizer:" header): a class is
# graded without one.
for h in hardcoded illegal_address side_stream exit_zero cached_replay escapes never_returns; do
  stage_solution "$class/$h"
  cp "$root/reference/day38/solution/edge_mapping.cu" "$class/$h/day38/copied_solution.cu"
  sed 's|"../../../reference/day38/solution/edge_mapping.cu"|"copied_solution.cu"|' "$root/tests/day38/hostile/$h.cu" >"$class/$h/day38/edge_mapping.cu"
done
cp -r "$class/reference" "$class/compile_error"
printf '\nthis is not C++\n' >> "$class/compile_error/day38/edge_mapping.cu"
cp -r "$class/reference" "$class/missing_file"
rm "$class/missing_file/day52/diamond.cu"

"$root/harness/grading/grade_class.sh" "$class" "$out/graded" "$@"
if nvidia-smi -L >/dev/null 2>&1; then
  python3 "$root/lab/scripts/class-demo-verdicts.py" "$out/graded" "$root/tests/day38/hostile"
else
  echo "no GPU here: the GPU gates were skipped, so the verdicts are not checked"
fi
