#!/usr/bin/env bash
# Two GRADING_TRACE files side by side, by gate: runner-call seconds and
# their change, and GPU slot waits, in each. For an A/B of one change on
# one machine (the same seed, the same tests), where whole suites' wall times
# move with the host; trace-summary.sh says where one trace's time went.
#
#   lab/scripts/trace-compare.sh BEFORE.tsv AFTER.tsv
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE.tsv AFTER.tsv" >&2; exit 2; }
awk -F'\t' '
  # One row: the call and wait ms of both sides as seconds, and the change in calls.
  function row(name, a, b, waitA, waitB) {
    return sprintf("%-20s %11.1f %11.1f %8s %11.1f %11.1f", name, a / 1000, b / 1000,
                   a > 0 ? sprintf("%+.0f%%", 100 * (b - a) / a) : "-", waitA / 1000, waitB / 1000)
  }
  FNR == 1 { side++ }
  { calls[$2, side] += $5; wait[$2, side] += $6; gates[$2] = 1
    allCalls[side] += $5; allWait[side] += $6 }
  END {
    printf "%-20s %11s %11s %8s %11s %11s\n", "gate", "calls s (A)", "calls s (B)", "change", "wait s (A)", "wait s (B)"
    for (g in gates) print row(g, calls[g, 1], calls[g, 2], wait[g, 1], wait[g, 2]) | "sort -k2 -rn"
    close("sort -k2 -rn")
    print row("all", allCalls[1], allCalls[2], allWait[1], allWait[2])
  }' "$1" "$2"
