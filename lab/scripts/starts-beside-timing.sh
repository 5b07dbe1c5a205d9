#!/usr/bin/env bash
# Whether runners starting perturb a timed kernel beside them
# (docs/performance.md, "Runner starts": these two timings did not move, day
# 52's diamond did, and starts wait for timed calls): starts_beside_timing
# (lab/bench/starts_beside_timing.cu) times a 64 MiB write and a
# host-driven loop of 22 launches and read-backs with nothing beside it,
# then beside LOOPS (default 4) loops of processes starting as a runner's
# probe does, then of processes that also make a CUDA context; ROUNDS times
# (default 2). One row per condition and figure: median, IQR, max.
# SETTLE_S (default 1): seconds the loops run before each timing starts.
#
#   lab/scripts/starts-beside-timing.sh BUILD_DIR [runs]     (default 2000 timed runs)
set -euo pipefail
build=$1
runs=${2:-2000}
tool="$build/lab/starts_beside_timing"
[ -x "$tool" ] || { echo "starts-beside-timing: no $tool (build the starts_beside_timing target)" >&2; exit 1; }
work=$(mktemp -d)
stop="$work/stop"
loops=()
# However the script ends, no loop of starts outlives it.
stop_loops() {
  touch "$stop"
  local status=0
  for p in "${loops[@]}"; do wait "$p" || status=1; done
  loops=()
  return $status
}
trap 'stop_loops || true; rm -rf "$work"' EXIT
first=$("$tool" start) || { echo "starts-beside-timing: a start failed on its own" >&2; exit 1; }
echo "a probe's start leaves the context ${first#context }"
printf '%-34s %-13s %10s %7s %10s\n' "beside the timed process" "figure" "median us" "IQR %" "max us"
for ((round = 1; round <= ${ROUNDS:-2}; round++)); do
  for beside in nothing starts context; do
    rm -f "$stop"
    case $beside in
      nothing) label="nothing" extra=() ;;
      starts) label="${LOOPS:-4} loops of starts" extra=() ;;
      context) label="${LOOPS:-4} loops of starts + context" extra=(--context) ;;
    esac
    if [ "$beside" != nothing ]; then
      for ((i = 0; i < ${LOOPS:-4}; i++)); do
        (while [ ! -e "$stop" ]; do "$tool" start "${extra[@]}" >/dev/null || exit 1; done) &
        loops+=($!)
      done
      sleep "${SETTLE_S:-1}"  # every loop under way before the timing starts
    fi
    out=$("$tool" time --runs "$runs") || { echo "starts-beside-timing: the timed process failed" >&2; exit 1; }
    stop_loops || { echo "starts-beside-timing: a starting process failed ($label)" >&2; exit 1; }
    awk -v c="$label, round $round" '{ printf "%-34s %-13s %10.2f %7.2f %10.2f\n", c, $1, $2, $3, $4 }' <<<"$out"
  done
done
