#!/usr/bin/env bash
# The cost model behind a shared GPU's times: N processes (1, 2, 4, 8, 16)
# each with its own CUDA context run gpu_turns (lab/bench/gpu_turns.cu)
# for the same seconds, in each pattern, and the table sums them:
# launches the GPU served per second in all, and what one launch cost a
# process. Where the total stays flat (or falls) as N grows, the GPU serves
# turns one context at a time and sharing it only divides them.
#
#   lab/scripts/gpu-turns.sh BUILD_DIR [seconds]        (default 2 s a run)
#   PROCS="1 4 16" MODES="sync paced" to choose; LEAD_S, the seconds from
#   starting the processes to opening their window (default 2 + N/4: 16
#   contexts take more than 2 s to come up, and a window opened before
#   then measures fewer processes than it says). MPS=1: the processes are
#   clients of a CUDA MPS daemon this script starts and stops, one context
#   on the GPU instead of N.
set -euo pipefail
build=$1
seconds=${2:-2}
tool="$build/lab/gpu_turns"
[ -x "$tool" ] || { echo "gpu-turns: no $tool (build the gpu_turns target)" >&2; exit 1; }
if [ "${MPS:-0}" = 1 ]; then
  export CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
  CUDA_MPS_PIPE_DIRECTORY=$(mktemp -d) CUDA_MPS_LOG_DIRECTORY=$(mktemp -d)
  nvidia-cuda-mps-control -d
  trap 'echo quit | nvidia-cuda-mps-control' EXIT
fi
printf '%-24s %6s %12s %22s %20s\n' "pattern" "procs" "launches/s" "us a launch, a process" "GPU us per launch"
for mode in ${MODES:-sync burst paced}; do
  case $mode in
    sync) args=(sync) label="launch, wait" ;;
    burst) args=(burst --launches 8) label="8 launches, one wait" ;;
    paced) args=(paced --launches 8 --gap-us 20) label="8 launches 20 us apart" ;;
    *) echo "gpu-turns: no pattern \"$mode\" (sync, burst, paced)" >&2; exit 2 ;;
  esac
  for n in ${PROCS:-1 2 4 8 16}; do
    start=$(($(date +%s) + ${LEAD_S:-$((2 + n / 4))}))
    pids=() outs=()
    for ((i = 0; i < n; i++)); do
      outs+=("$(mktemp)")
      "$tool" "${args[@]}" --seconds "$seconds" --start-at "$start" >"${outs[i]}" &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || { echo "gpu-turns: a $mode process of $n failed" >&2; exit 1; }; done
    cat "${outs[@]}" | awk -v label="$label" -v n="$n" '
      { rate += $2 / $3 }
      END { printf "%-24s %6d %12.0f %22.1f %20.1f\n", label, n, rate, 1e6 * n / rate, 1e6 / rate }'
    rm -f "${outs[@]}"
  done
done
