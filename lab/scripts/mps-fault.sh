#!/usr/bin/env bash
# Whether one client's fault reaches the clients beside it: four honest
# clients launch and wait for 4 s; 1 s in, a fifth writes through a bad
# pointer. Without MPS, then under it. Prints each client's line.
#   lab/scripts/mps-fault.sh OUT_DIR
source "$(dirname "$0")/mps-common.sh"
beside_a_fault() {
  local outs=()
  for i in 1 2 3 4; do
    outs+=("$out/honest$i.txt")
    "$out/mps_fault" honest 4 >"$out/honest$i.txt" 2>&1 &
  done
  "$out/mps_fault" fault 1000 2>&1
  wait
  cat "${outs[@]}"
}
echo "== without MPS"
beside_a_fault
nvidia-cuda-mps-control -d
echo "== under MPS"
beside_a_fault
echo "== under MPS, 2 s later: a new client"
sleep 2
"$out/mps_fault" honest 1 2>&1
echo quit | nvidia-cuda-mps-control
