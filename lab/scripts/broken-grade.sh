#!/usr/bin/env bash
# A student's grade of broken kernels, end to end on a GPU machine: the
# instructor solution staged as a student's folder with a planted bug in
# each of days 38 and 34 (PLANT38, default first_of_tied_starts; PLANT34,
# default apron_row_short: the exercise files as the build's plants/ hold
# them, harness/<day>/plants.cmake), graded through the grade target as a
# student runs it; then graded again on the counterexample files the
# messages name (-DGRADING_DAY38_GRAPHS, -DGRADING_DAY34_GRIDS), as the
# messages say to replay them. Keeps in OUT_DIR: both reports, the first
# run's results.json and report.html (tests/grading/fixtures/html/planted/
# holds one such results.json) and the counterexample files. Exits non-zero
# when a step fails or a message names no file.
#
#   [PLANT38=name] [PLANT34=name] lab/scripts/broken-grade.sh OUT_DIR [BUILD_DIR]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
build=${2:-/tmp/broken-grade}
mkdir -p "$out"
source "$root/.ci/find-bwrap.sh"
source "$root/.ci/class-lib.sh"
source "$root/.ci/carried-deps.sh"
plant38=${PLANT38:-first_of_tied_starts}
plant34=${PLANT34:-apron_row_short}
submission="$build-submission"
rm -rf "$submission" && stage_solution "$submission"
args=(-G Ninja "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS:-native}" "-DGRADING_SUBMISSION_DIR=$submission"
      "-DGRADING_DAYS=day34;day38" "${deps_args[@]}")
cmake -S "$root" -B "$build" "${args[@]}" > "$build-configure.log" 2>&1 || { tail -20 "$build-configure.log"; exit 1; }
# The planted copies are written at configure time.
cp "$build/harness/day38/plants/$plant38/edge_mapping.cu" "$submission/day38/edge_mapping.cu" &&
  cp "$build/harness/day34/plants/$plant34/heat_tiled.cu" "$submission/day34/heat_tiled.cu" ||
  { echo "broken-grade: no plant $plant38 of day 38's edge_mapping.cu or $plant34 of day 34's heat_tiled.cu"; exit 1; }
echo "planted: day38 $plant38, day34 $plant34"
start=$(date +%s)
cmake --build "$build" --target grade > "$out/grade.txt" 2>&1
echo "grade: exit $? in $(( $(date +%s) - start )) s (1: a gate failed, as it should)"
cp "$build/results.json" "$build/report.html" "$out/" || exit 1
grep -E '^(38\.distances|34\.stencil) ' "$out/grade.txt"
graph=$(grep -o 'DGRADING_DAY38_GRAPHS=[^ )]*' "$out/grade.txt" | head -1 | cut -d= -f2)
grid=$(grep -o 'DGRADING_DAY34_GRIDS=[^ )]*' "$out/grade.txt" | head -1 | cut -d= -f2)
[ -f "$graph" ] && [ -f "$grid" ] || { echo "broken-grade: no counterexample file named (graph '$graph', grid '$grid')"; exit 1; }
cp "$graph" "$out/counterexample-graph.txt" && cp "$grid" "$out/counterexample-grid.txt"
cp "$graph" "$build-graph.txt" && cp "$grid" "$build-grid.txt"
cmake "$build" "-DGRADING_DAY38_GRAPHS=$build-graph.txt" "-DGRADING_DAY34_GRIDS=$build-grid.txt" > "$build-configure-replay.log" 2>&1 || { tail -20 "$build-configure-replay.log"; exit 1; }
start=$(date +%s)
cmake --build "$build" --target grade > "$out/grade-replay.txt" 2>&1
echo "replay: exit $? in $(( $(date +%s) - start )) s"
grep -E '^(38\.distances|34\.stencil) ' "$out/grade-replay.txt"
grep -E 'file1_' "$out/grade-replay.txt" | head -6
