#!/usr/bin/env bash
# Two GRADING_TRACE files side by side, by gate: runner-call seconds, GPU
# slot waits and calls in each, and the change. For an A/B of one change on
# one machine (the same seed, the same tests), where whole suites' wall times
# move with the host; trace-summary.sh says where one trace's time went.
#
#   lab/scripts/trace-compare.sh BEFORE.tsv AFTER.tsv
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE.tsv AFTER.tsv" >&2; exit 2; }
awk -F'\t' '
  FNR == 1 { side++ }
  { calls[$2, side] += $5; wait[$2, side] += $6; n[$2, side] += $7; gates[$2] = 1
    allCalls[side] += $5; allWait[side] += $6 }
  END {
    printf "%-20s %11s %11s %8s %11s %11s\n", "gate", "calls s (A)", "calls s (B)", "change", "wait s (A)", "wait s (B)"
    for (g in gates) {
      a = calls[g, 1] / 1000; b = calls[g, 2] / 1000
      change = (a > 0 ? sprintf("%+.0f%%", 100 * (b - a) / a) : "-")
      printf "%-20s %11.1f %11.1f %8s %11.1f %11.1f\n", g, a, b, change, wait[g, 1] / 1000, wait[g, 2] / 1000 | "sort -k2 -rn"
    }
    close("sort -k2 -rn")
    printf "%-20s %11.1f %11.1f %8s %11.1f %11.1f\n", "all", allCalls[1] / 1000, allCalls[2] / 1000,
           (allCalls[1] > 0 ? sprintf("%+.0f%%", 100 * (allCalls[2] - allCalls[1]) / allCalls[1]) : "-"),
           allWait[1] / 1000, allWait[2] / 1000
  }' "$1" "$2"
