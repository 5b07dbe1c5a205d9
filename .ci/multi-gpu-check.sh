#!/usr/bin/env bash
# Shows that ctest's resource groups spread GPU tests over the machine's GPUs:
# runs a few reference tests with one slot per GPU and prints which GPU (PCI
# bus id) each test's runner saw, with start and end times.
#   .ci/multi-gpu-check.sh BUILD_DIR OUT_DIR
set -uo pipefail
build=$1
out=$2
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
exit $rc
