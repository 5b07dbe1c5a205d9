#!/usr/bin/env bash
# What CUDA MPS would mean for the grading sandbox's trust boundary (issue 46),
# each runner as the sandbox runs it (its own /proc, namespaces, a uid of its
# own, no capabilities) with the daemon's pipe folder bound in:
#   - whether the daemon's default memory limit holds, and whether a client's
#     own environment can raise it;
#   - whether clients of two uids share the GPU or take turns (MPS runs one
#     server, one uid, at a time);
#   - whether submitted code can send the daemon commands (a limit, quit);
#   - whether a client started just after another's fault gets a context.
# Prints one line a question. Run as root on the GPU machine.
#   lab/scripts/mps-trust.sh OUT_DIR
source "$(dirname "$0")/mps-common.sh"
[ "$(id -u)" = 0 ] || { echo "mps-trust: run as root (it runs clients as other uids)" >&2; exit 1; }
[ -n "$bwrap" ] || { echo "mps-trust: no bwrap" >&2; exit 1; }
log="$out/mps-trust.txt"
: >"$log"
say() { echo "$*" | tee -a "$log"; }
bin=/tmp/mps-bin  # readable by the clients' uids, unlike OUT_DIR perhaps
install -d -m 755 "$bin" && cp "$out/mps_alloc" "$out/mps_fault" "$bin/"
chmod 755 "$CUDA_MPS_PIPE_DIRECTORY"
trap 'echo quit | nvidia-cuda-mps-control >/dev/null 2>&1' EXIT

boxed() {  # uid, command...: as the grading sandbox runs a runner, as root; 30 s at most
  local uid=$1
  shift
  timeout 30 "${client_box[@]}" --unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup-try \
    --new-session --proc /proc --ro-bind "$bin" "$bin" -- /usr/bin/setpriv "--reuid=$uid" "--regid=$uid" --clear-groups --inh-caps=-all --bounding-set=-all -- "$@"
}
t0=$(date +%s.%N)
at() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
stamped() {  # command...: its output, with when it began and ended
  local began said
  began=$(at)
  said=$("$@" 2>&1 | tr '\n' ' ')
  echo "$said[${began} s to $(at) s]"
}
daemon() {
  nvidia-cuda-mps-control -d || say "mps control daemon: exit $?"
  say "daemon's default limit 4 GiB: $(echo set_default_device_pinned_mem_limit 0 4G | nvidia-cuda-mps-control 2>&1) (exit $?)"
}

daemon
say "== the daemon's default limit"
say "root, unsandboxed, asks 8: $(stamped timeout 30 "$bin/mps_alloc" 8)"
say "uid 400001 sandboxed, asks 8: $(stamped boxed 400001 "$bin/mps_alloc" 8)"
say "uid 400001 sandboxed, its environment asks a 100 GiB limit, asks 8: $(stamped boxed 400001 \
  env CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=100G "$bin/mps_alloc" 8)"

say "== two sandboxed clients at once, 3 s and 1 s of launches, the second 0.5 s after the first"
for second in 400001 400002; do
  stamped boxed 400001 "$bin/mps_fault" honest 3 >"$out/first.txt" &
  sleep 0.5
  b=$(stamped boxed "$second" "$bin/mps_fault" honest 1)
  wait
  say "uid 400001 and uid $second: first $(cat "$out/first.txt"); second $b"
done

say "== daemon commands sent from inside the sandbox (uid 400003)"
control() {  # a command to the daemon from inside the sandbox: its answer and exit status
  { echo "$1" | boxed 400003 nvidia-cuda-mps-control; echo "(exit $?)"; } 2>&1 | tr '\n' ' '
}
say "get_server_list: $(control get_server_list)"
say "set_default_device_pinned_mem_limit 0 100G: $(control "set_default_device_pinned_mem_limit 0 100G")"
say "then a new uid (400004) sandboxed, asks 8: $(stamped boxed 400004 "$bin/mps_alloc" 8)"
say "quit: $(control quit)"
sleep 1
# (pgrep -x cannot match it: a process's name stops at 15 characters.)
running() { pgrep -f '^nvidia-cuda-mps-control -d' >/dev/null; }
say "the daemon after that: $(running && echo "running, its servers: $(echo get_server_list | nvidia-cuda-mps-control | tr '\n' ' ')" || echo gone)"

running || daemon
say "== a client started just after another client's fault (root, unsandboxed)"
for delay in 0 0.2 0.5 1 2; do
  fault=$("$bin/mps_fault" fault 0 2>&1)
  sleep "$delay"
  say "${delay} s after (${fault}): $(stamped timeout 30 "$bin/mps_fault" honest 0.3)"
done
cp -r "$CUDA_MPS_LOG_DIRECTORY" "$out/mps-trust-log" 2>/dev/null
