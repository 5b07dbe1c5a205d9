#!/usr/bin/env bash
# Grades a demonstration class with harness/grading/grade_class.sh: the
# instructor solutions, the untouched stubs, hostile submissions from
# days/day38/hostile, one that does not compile and one with a file missing.
#   .ci/class-demo.sh OUT_DIR [extra cmake args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/.ci/class-lib.sh"
out=$1
shift
class="$out/class"
rm -rf "$class" && mkdir -p "$class"

cp -r "$root/exercises" "$class/stub"
stage_solution "$class/reference"
for h in hardcoded illegal_address side_stream exit_zero cached_replay; do
  cp -r "$root/exercises" "$class/$h"
  cp "$root/days/day38/hostile/$h.cu" "$class/$h/day38/edge_mapping.cu"
done
cp -r "$class/reference" "$class/compile_error"
printf '\nthis is not C++\n' >> "$class/compile_error/day38/edge_mapping.cu"
cp -r "$class/reference" "$class/missing_file"
rm "$class/missing_file/day52/diamond.cu"

"$root/harness/grading/grade_class.sh" "$class" "$out/graded" "$@"
