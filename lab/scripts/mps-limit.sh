#!/usr/bin/env bash
# Whether CUDA MPS can bound each runner's device memory on this machine
# (issue 46's isolation): starts an MPS control daemon, then clients of
# mps_alloc.cu under CUDA_MPS_PINNED_DEVICE_MEM_LIMIT, one sandboxed by
# bwrap with the MPS pipe folder bound in, one beside a neighbour that asks
# for all the memory it can. Prints what each got; stops the daemon.
#   lab/scripts/mps-limit.sh OUT_DIR
source "$(dirname "$0")/mps-common.sh"
log="$out/mps-limit.txt"
say() { echo "$*" | tee -a "$log"; }
: >"$log"
say "== without MPS: a client asks for 8 GiB"
say "$("$out/mps_alloc" 8 2>&1)"
nvidia-cuda-mps-control -d; say "mps control daemon: exit $?"
say "== under MPS, limit 4 GiB per client (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=4G)"
say "asks 2: $(CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=4G "$out/mps_alloc" 2 2>&1)"
say "asks 8: $(CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=4G "$out/mps_alloc" 8 2>&1)"
say "== a neighbour asks for 200 GiB under the limit while an honest client asks for 8 GiB (limit 16G)"
CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=16G "$out/mps_alloc" 200 6 >"$out/hog.txt" 2>&1 &
hog=$!
sleep 3
say "honest: $(CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=16G "$out/mps_alloc" 8 2>&1)"
wait $hog; say "hog: $(cat "$out/hog.txt")"
say "== without a limit, the neighbour takes what it can first"
"$out/mps_alloc" 200 6 >"$out/hog2.txt" 2>&1 &
hog=$!
sleep 4
say "honest: $("$out/mps_alloc" 8 2>&1)"
wait $hog; say "hog: $(cat "$out/hog2.txt")"
if [ -n "$bwrap" ]; then
  # Namespaces unshared, all of them, then all but one or two: none was the
  # cause (the /proc variants below are; mps-sandbox-trace.sh shows why).
  boxed() {  # label, namespace flags...
    local label=$1
    shift
    say "sandboxed ($label), the pipe folder bound in, limit 4 GiB, asks 8: $(CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=4G \
      "${client_box[@]}" --ro-bind "$out" "$out" "$@" "$out/mps_alloc" 8 2>&1)"
  }
  boxed "every namespace" --unshare-all
  boxed "all but pid" --unshare-user --unshare-ipc --unshare-net --unshare-uts --unshare-cgroup-try
  boxed "all but user" --unshare-pid --unshare-ipc --unshare-net --unshare-uts --unshare-cgroup-try
  boxed "all but ipc" --unshare-user --unshare-pid --unshare-net --unshare-uts --unshare-cgroup-try
  boxed "all but net" --unshare-user --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try
  # MPS in containers asks for the host's IPC namespace (Kubernetes' hostIPC), and the
  # server identifies its clients by pid: both shared, then both and the user's.
  boxed "all but ipc and pid" --unshare-user --unshare-net --unshare-uts --unshare-cgroup-try
  boxed "net, uts and cgroup only" --unshare-net --unshare-uts --unshare-cgroup-try
  boxed "net only" --unshare-net
  boxed "mounts only"
  # bwrap run by root drops every capability: whether that is what the daemon refuses.
  boxed "mounts only, every capability kept" --cap-add ALL
  boxed "every namespace, every capability kept" --unshare-all --cap-add ALL
  # The variants above see the host's /proc read-only (--ro-bind / /), where
  # the driver's write of its thread's name (/proc/self/task/*/comm) fails
  # with EROFS just before the client gives up (mps-sandbox-trace.sh); the
  # grading sandbox mounts a /proc of its own.
  boxed "every namespace, a /proc of its own" --unshare-all --proc /proc
  boxed "mounts only, a /proc of its own" --proc /proc
  say "sandboxed (every namespace), no pipe folder (as the sandbox is today), asks 2: $("$bwrap" --ro-bind / / \
    --dev-bind /dev /dev --tmpfs /tmp --ro-bind "$out" "$out" --unshare-all --die-with-parent "$out/mps_alloc" 2 2>&1)"
fi
echo quit | nvidia-cuda-mps-control; say "mps quit: exit $?"
cp -r "$CUDA_MPS_LOG_DIRECTORY" "$out/mps-log" 2>/dev/null
# As an instructor would run it: the daemon and its clients one user, not root.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
  id mpsuser >/dev/null 2>&1 || useradd -M -r -s /bin/sh mpsuser
  home=/tmp/mps-user
  rm -rf "$home"; mkdir -p "$home/pipe" "$home/log"; cp "$out/mps_alloc" "$home/"; [ -n "$bwrap" ] && cp "$bwrap" "$home/bwrap"; chown -R mpsuser "$home"
  as_user() { runuser -u mpsuser -- env CUDA_MPS_PIPE_DIRECTORY="$home/pipe" CUDA_MPS_LOG_DIRECTORY="$home/log" "$@"; }
  as_user nvidia-cuda-mps-control -d
  rc=$?
  say "== a user's daemon (uid $(id -u mpsuser)): exit $rc"
  say "user, unsandboxed, limit 4 GiB, asks 8: $(as_user env CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=4G "$home/mps_alloc" 8 2>&1)"
  for flags in "--unshare-all" "--unshare-net"; do
    say "user, sandboxed ($flags), limit 4 GiB, asks 8: $(as_user env CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=4G "$home/bwrap" \
      --ro-bind / / --dev-bind /dev /dev --tmpfs /tmp --bind "$home" "$home" $flags --die-with-parent "$home/mps_alloc" 8 2>&1)"
  done
  echo quit | as_user nvidia-cuda-mps-control; say "user's mps quit: exit $?"
  cp -r "$home/log" "$out/mps-user-log" 2>/dev/null
fi
