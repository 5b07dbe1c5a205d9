#!/usr/bin/env bash
# Writes a ctest resource spec with one slot per GPU of this machine, so that
#   ctest -j <GPUs> --resource-spec-file gpus.json -L reference
# runs one GPU test per GPU at a time, each runner bound to its GPU.
#   .ci/gpu-resources.sh > gpus.json
set -euo pipefail
count=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
if [ "$count" -eq 0 ]; then
  echo "no GPU visible to nvidia-smi" >&2
  exit 1
fi
printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [{\n    "gpus": [\n'
for ((i = 0; i < count; i++)); do
  printf '      {"id": "%d", "slots": 1}%s\n' "$i" "$([ $i -lt $((count - 1)) ] && echo ,)"
done
printf '    ]\n  }]\n}\n'
