#!/usr/bin/env bash
# Why a bwrap-sandboxed CUDA client gets no context under MPS
# (lab/scripts/mps-limit.sh: cudaErrorOperatingSystem, and the control
# daemon never sees it connect): the client's failed system calls, traced by
# strace (unpacked from .deps/strace/*.deb where the machine has none)
# unsandboxed and then sandboxed with no namespace but the mounts.
#   lab/scripts/mps-sandbox-trace.sh OUT_DIR
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
mkdir -p "$out"
source "$root/.ci/find-bwrap.sh"
bwrap=$(command -v bwrap || echo "${GRADING_BWRAP:-}")
strace=$(command -v strace || true)
if [ -z "$strace" ]; then
  for deb in "$root"/.deps/strace/*.deb; do dpkg -x "$deb" /tmp/strace-root; done
  strace=/tmp/strace-root/usr/bin/strace
  export LD_LIBRARY_PATH=/tmp/strace-root/usr/lib/x86_64-linux-gnu
fi
nvcc -O2 -o /tmp/mps_alloc "$root/lab/bench/mps_alloc.cu" || exit 1
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d
trace() {  # label, command...
  local label=$1
  shift
  "$strace" -f -o "$out/$label.strace" -e trace=file,network,ipc,memory "$@" >"$out/$label.txt" 2>&1
  echo "== $label: $(cat "$out/$label.txt")"
  grep -E "= -1 E" "$out/$label.strace" | grep -vE "ENOENT \(No such file|EAGAIN" | tail -15
  grep -E "connect\(|mps|/dev/shm" "$out/$label.strace" | tail -12
}
trace plain /tmp/mps_alloc 2
trace mounts_only "$bwrap" --ro-bind / / --dev-bind /dev /dev --tmpfs /tmp \
  --bind "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_PIPE_DIRECTORY" --ro-bind /tmp/mps_alloc /tmp/mps_alloc \
  --die-with-parent /tmp/mps_alloc 2
trace mounts_only_tmp_shared "$bwrap" --ro-bind / / --dev-bind /dev /dev --bind /tmp /tmp --die-with-parent /tmp/mps_alloc 2
echo quit | nvidia-cuda-mps-control
