#!/usr/bin/env bash
# Shows that a run spreads over the machine's GPUs, two ways:
#  - ctest's resource groups: a few reference tests with one slot per GPU,
#    and which GPU (PCI bus id) each test's runner saw;
#  - a class: the demonstration class (lab/scripts/class-demo.sh) with its students
#    handed to the GPUs round robin (grade_class.sh --gpus), its scores, and
#    each GPU's slot timeline (SKIP_CLASS=1: not this time).
#   .ci/multi-gpu-check.sh BUILD_DIR OUT_DIR
set -uo pipefail
build=$1
out=$2
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
gpus=$(nvidia-smi -L | wc -l)
bash "$root/.ci/gpu-resources.sh" > "$out/gpus.json"
echo "== $gpus GPUs; resource spec:"; cat "$out/gpus.json"
start=$(date +%s.%N)
ctest --test-dir "$build" -j "$gpus" --resource-spec-file "$out/gpus.json" -V \
  -R '^reference\.38\.(walk|levels|frontier_total)(\.shard[0-9]+of[0-9]+)?$' \
  > "$out/multi-gpu.log" 2>&1
rc=$?
end=$(date +%s.%N)
# With -V, ctest prefixes each line of a test's output with its number.
grep -E '^[0-9]+: (device:|Test command)|Test +#[0-9]+: .*(Passed|Failed)|CTEST_RESOURCE_GROUP_0_GPUS' "$out/multi-gpu.log" \
  | sed -E 's/Test command: .*/(started)/' | head -40
echo "== wall $(awk "BEGIN{printf \"%.1f\", $end - $start}") s for $(grep -cE 'Test +#[0-9]+: ' "$out/multi-gpu.log") tests; ctest exit $rc"
echo "== distinct GPUs seen by the runners: $(grep -oE '^[0-9]+: device: .* at [0-9A-Fa-f:.]+' "$out/multi-gpu.log" | awk '{print $NF}' | sort -u | tr '\n' ' ')"
[ -n "${SKIP_CLASS:-}" ] && exit $rc

# The class is built as the suite was: the same architectures and GoogleTest.
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
build_args=(-DCMAKE_CUDA_ARCHITECTURES="$(cache CMAKE_CUDA_ARCHITECTURES)")
googletest=$(cache FETCHCONTENT_SOURCE_DIR_GOOGLETEST)
[ -n "$googletest" ] && build_args+=(-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST="$googletest")
source "$root/.ci/find-bwrap.sh"
slots="$out/class-slots.tsv"
rm -f "$slots"
start=$(date +%s)
GRADING_SLOT_TRACE="$slots" bash "$root/lab/scripts/class-demo.sh" "$out/demo" --gpus "$(seq -s, 0 $((gpus - 1)))" \
  --build-args "${build_args[@]}" > "$out/class-demo.log" 2>&1
class_rc=$?
echo "== demonstration class on $gpus GPUs: $(($(date +%s) - start)) s, exit $class_rc"
cat "$out/demo/graded/summary.md" 2>/dev/null || tail -20 "$out/class-demo.log"
bash "$root/lab/scripts/slot-timeline.sh" "$slots"
((rc == 0)) && exit $class_rc
exit $rc
