# How busy the GPU's kernels were while a phase ran, from `nvidia-smi dmon`
# sampled once a second: its "sm" column is the share of the second in which
# some kernel ran. A grading run whose GPU is busy well under 100% waits on
# round trips, turns between processes and drains, not on the GPU's work.
# Sourced:  gpu_busy_start FILE; ...; gpu_busy_stop   (prints one line per GPU;
# prints nothing where there is no nvidia-smi).
gpu_busy_pid=""
gpu_busy_file=""

gpu_busy_start() {
  gpu_busy_file=$1
  gpu_busy_pid=""
  command -v nvidia-smi >/dev/null || return 0
  nvidia-smi dmon -s ut -d 1 >"$gpu_busy_file" 2>&1 &
  gpu_busy_pid=$!
}

gpu_busy_stop() {
  [ -n "$gpu_busy_pid" ] || return 0
  kill "$gpu_busy_pid" 2>/dev/null
  wait "$gpu_busy_pid" 2>/dev/null
  gpu_busy_pid=""
  # The columns are found by name in the header: drivers differ in which
  # engines they list between sm and the PCIe counters.
  awk '/^#/ && !("sm" in col) && / sm / { sub(/^#/, ""); for (i = 1; i <= NF; i++) col[$i] = i; next }
       /^#/ || !("sm" in col) || !("gpu" in col) || $col["sm"] !~ /^[0-9]+$/ { next }  # "-": no reading
       { g = $col["gpu"]; n[g]++; sm[g] += $col["sm"]
         if ("rxpci" in col) rx[g] += $col["rxpci"]; if ("txpci" in col) tx[g] += $col["txpci"] }
       END { for (g in n) printf "GPU %s: kernels ran in %.0f%% of %d s sampled (%.0f busy s); PCIe %.1f GB/s in, %.1f GB/s out on average\n",
                                 g, sm[g] / n[g], n[g], sm[g] / 100, rx[g] / n[g] / 1000, tx[g] / n[g] / 1000 }' "$gpu_busy_file" | sort
}
