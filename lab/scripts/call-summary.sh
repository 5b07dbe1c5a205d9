#!/usr/bin/env bash
# Where the runner calls' time went, by kind of call, from the lines
# GRADING_CALL_TRACE=<file> collects (one per call: label, ms from asking to
# the verdict, ms the runner took, answer bytes, ms of those it held the GPU
# exclusively: a timed call in a session only while it measured). A kind
# is the label without what it ran on (" on <graph or grid>") and with its
# numbers as N. Asked ms less runner ms is the wait for GPU slots and the
# host's own work on the request and the answer.
#
#   lab/scripts/call-summary.sh CALL_TRACE_FILE [top-N]
set -euo pipefail
trace=$1
top=${2:-15}
printf '%-58s %6s %9s %9s %11s %8s\n' "call kind (top $top by asked s)" calls "asked s" "runner s" "exclusive s" "MB/call"
awk -F'\t' 'NF >= 5 {
    k = $1; sub(/ on .*/, "", k); gsub(/[0-9]+/, "N", k)
    n[k]++; asked[k] += $2; ran[k] += $3; mb[k] += $4 / 1e6; exclusive[k] += $5
  }
  END { for (k in n) printf "%s\t%d\t%.1f\t%.1f\t%.1f\t%.1f\n", k, n[k], asked[k] / 1000, ran[k] / 1000, exclusive[k] / 1000, mb[k] / n[k] }' \
  "$trace" | sort -t$'\t' -k3 -rn | head -n "$top" |
  awk -F'\t' '{ printf "%-58s %6s %9s %9s %11s %8s\n", substr($1, 1, 58), $2, $3, $4, $5, $6 }'
