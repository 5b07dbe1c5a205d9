#!/usr/bin/env bash
# Why a bwrap-sandboxed CUDA client gets no context under MPS
# (lab/scripts/mps-limit.sh: cudaErrorOperatingSystem, and the control
# daemon never sees it connect): the client's failed system calls, traced by
# strace (unpacked from .deps/strace/*.deb where the machine has none)
# unsandboxed and then sandboxed with no namespace but the mounts. On the
# H200 the last one was the driver's write of a thread name to
# /proc/self/task/*/comm, refused by the read-only /proc (EROFS).
#   lab/scripts/mps-sandbox-trace.sh OUT_DIR
source "$(dirname "$0")/mps-common.sh"
strace=$(command -v strace || true)
if [ -z "$strace" ]; then
  for deb in "$root"/.deps/strace/*.deb; do dpkg -x "$deb" /tmp/strace-root; done
  strace=/tmp/strace-root/usr/bin/strace
  export LD_LIBRARY_PATH=/tmp/strace-root/usr/lib/x86_64-linux-gnu
fi
nvidia-cuda-mps-control -d
trace() {  # label, command...
  local label=$1
  shift
  "$strace" -f -o "$out/$label.strace" -e trace=file,network,ipc,memory "$@" >"$out/$label.txt" 2>&1
  echo "== $label: $(cat "$out/$label.txt")"
  grep -E "= -1 E" "$out/$label.strace" | grep -vE "ENOENT \(No such file|EAGAIN" | tail -15
  grep -E "connect\(|mps|/dev/shm" "$out/$label.strace" | tail -12
}
trace plain "$out/mps_alloc" 2
trace mounts_only "${client_box[@]}" --ro-bind "$out" "$out" "$out/mps_alloc" 2
trace mounts_only_tmp_shared "$bwrap" --ro-bind / / --dev-bind /dev /dev --bind /tmp /tmp --ro-bind "$out" "$out" \
  --die-with-parent "$out/mps_alloc" 2
echo quit | nvidia-cuda-mps-control
