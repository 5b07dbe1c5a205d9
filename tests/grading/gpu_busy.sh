#!/usr/bin/env bash
# .ci/gpu-busy.sh against recorded `nvidia-smi dmon -s ut` output played by a
# fake nvidia-smi: one line per GPU with the right means, columns found by
# name (the H200's driver lists jpg and ofa, older ones do not), "-" readings
# left out, the sampler gone after the stop; and nothing at all where there
# is no nvidia-smi.
#   gpu_busy.sh REPO_ROOT
set -uo pipefail
source "$(dirname "$0")/script_test.sh"
fixtures="$root/tests/grading/fixtures/dmon"

# Plays FIXTURE then keeps running, as dmon does, until killed.
mkdir -p "$work/bin"
cat >"$work/bin/nvidia-smi" <<'SH'
#!/bin/sh
cat "$FIXTURE"
exec sleep 60
SH
chmod +x "$work/bin/nvidia-smi"

check() {  # fixture, expected lines
  local got pid
  got=$(FIXTURE="$fixtures/$1" PATH="$work/bin:$PATH" bash -c '
    source "$0/.ci/gpu-busy.sh"
    gpu_busy_start "$1"
    sleep 0.5  # the fake has written its recording
    pid=$gpu_busy_pid
    gpu_busy_stop
    if kill -0 "$pid" 2>/dev/null; then echo "the sampler $pid still runs after gpu_busy_stop"; fi' "$root" "$work/$1.out")
  [ "$got" = "$2" ] || fail "$1
  got:  $got
  want: $2"
}

check two_gpus.txt "GPU 0: kernels ran in 70% of 2 s sampled (1 busy s); PCIe 2.0 GB/s in, 1.0 GB/s out on average
GPU 1: kernels ran in 20% of 2 s sampled (0 busy s); PCIe 0.3 GB/s in, 0.3 GB/s out on average"
check no_engines_no_pcie.txt "GPU 0: kernels ran in 50% of 2 s sampled (1 busy s); PCIe 0.0 GB/s in, 0.0 GB/s out on average"

# No nvidia-smi (a CPU machine): no sampler, no line. PATH keeps only what bash needs.
mkdir -p "$work/nogpu"
for tool in bash sleep; do ln -s "$(command -v "$tool")" "$work/nogpu/$tool"; done
got=$(PATH="$work/nogpu" bash -c 'source "$0/.ci/gpu-busy.sh"; gpu_busy_start "$1"; gpu_busy_stop; echo "pid=[$gpu_busy_pid]"' \
  "$root" "$work/none.out")
[ "$got" = "pid=[]" ] && [ ! -e "$work/none.out" ] || fail "without nvidia-smi
  got: $got"
finish "gpu-busy.sh: two recordings, and no nvidia-smi"
