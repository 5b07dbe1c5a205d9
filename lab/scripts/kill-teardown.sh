#!/usr/bin/env bash
# Whether a killed runner's kernel outlives the moment the grader gives its
# GPU slot back (issue 46's isolation). A probe times a 100 us kernel over
# and over; a spinner (lab/bench/kill_teardown.cu) is started in a sandbox
# shaped like the harness's (bwrap --unshare-pid --new-session
# --die-with-parent, its own process group), and once its kernel spins the
# group is killed as runProcess kills it. Printed per round, in ms after the
# kill: when the outer bwrap was reaped (without a cgroup, the grader's
# slot went back about then before f665d02), when the processes inside were
# gone, and when the probe's kernels ran at their own pace again. Also
# whether this machine lets the grader make a pids cgroup
# (lab/scripts/pids-cgroup.sh). The grader, since f665d02, kills and waits
# for every process below the bwrap it started, cgroup or not; this script
# does not: it shows what a kill of the group alone leaves.
#   lab/scripts/kill-teardown.sh OUT_DIR [ROUNDS]       (default 3)
# KILL_TEARDOWN: a kill_teardown already built (else nvcc builds one into OUT_DIR);
# ROUND_S: how long the probe runs a round (default 14; the kill comes about 5 s in).
set -uo pipefail
set -m  # each background job a process group of its own, as the grader starts a runner
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
rounds=${2:-3}
mkdir -p "$out"
source "$root/.ci/find-bwrap.sh"
[ -n "$bwrap" ] || { echo "kill-teardown: no bwrap" >&2; exit 1; }
if [ -n "${KILL_TEARDOWN:-}" ]; then
  cp "$KILL_TEARDOWN" "$out/kill_teardown" || exit 1
else
  nvcc -O2 -o "$out/kill_teardown" "$root/lab/bench/kill_teardown.cu" || exit 1
fi
log="$out/kill-teardown.txt"
: >"$log"
say() { echo "$*" | tee -a "$log"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

say "$(bash "$root/lab/scripts/pids-cgroup.sh")"

# gone PID...: whether each is gone or a zombie (its files, the GPU's, closed).
gone() {
  local p state
  for p in "$@"; do
    state=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null) || continue
    [[ -z "$state" || "$state" == Z || "$state" == X ]] || return 1
  done
}
below() {  # every process below $1
  local c
  for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do echo "$c"; below "$c"; done
}

for ((round = 1; round <= rounds; round++)); do
  "$out/kill_teardown" probe "${ROUND_S:-14}" >"$out/probe-$round.txt" 2>&1 &
  probe=$!
  sleep 3
  "$bwrap" --unshare-pid --unshare-ipc --unshare-net --die-with-parent --new-session \
    --ro-bind / / --dev-bind /dev /dev --proc /proc --tmpfs /tmp --ro-bind "$out/kill_teardown" /tmp/kill_teardown \
    /tmp/kill_teardown spin 60 >"$out/spin-$round.txt" 2>&1 &
  box=$!
  for _ in $(seq 100); do grep -q launched "$out/spin-$round.txt" && break; sleep 0.1; done
  sleep 2
  inside=$(below "$box" | tr '\n' ' ')
  killed=$(now_ms)
  kill -KILL -- "-$box"
  wait "$box" 2>/dev/null
  reaped=$(($(now_ms) - killed))
  # shellcheck disable=SC2086
  while ! gone $inside && (($(now_ms) - killed < 120000)); do sleep 0.005; done
  ended=$(($(now_ms) - killed))
  wait "$probe"
  # The probe's pace before the spinner, and when it was last slower than 3x that after the kill.
  start_s=$(sed -n 's/^start //p' "$out/probe-$round.txt")
  say "$(awk -v start="$start_s" -v killed="$killed" -v reaped="$reaped" -v ended="$ended" -v inside="$(wc -w <<<"$inside")" '
    NR == 1 { next }
    $1 == "error" { print "probe: " $0; exit }
    { at = start * 1000 + $1 - killed }
    $1 < 2500 { alone += $2; alonen++ }
    at < 0 && at > -1500 { beside += $2; besiden++ }
    at >= 0 && alonen && $2 > 3 * alone / alonen { last = at + $2 / 1000 }
    END {
      printf "round: reaped %d ms after the kill, the %d processes inside gone after %d ms, probe back to its pace after %d ms; " \
             "probe %d us alone, %d us beside the spinner\n", reaped, inside, ended, last,
             alonen ? alone / alonen : 0, besiden ? beside / besiden : 0
    }' "$out/probe-$round.txt")"
done
