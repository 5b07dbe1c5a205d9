#!/usr/bin/env bash
# Where a suite's time went, from the lines GRADING_TRACE=<file> collects (one
# per case: test, gate, case, total ms, runner call ms, GPU slot wait ms,
# calls, runner processes started, wall-clock start and end in epoch ms, and
# the runner call ms that held the GPU exclusively).
# Host ms is the rest: inputs, expected outputs, judging. The calls that held
# the GPU exclusively cannot overlap anything, so their sum is a floor under the
# wall time of whatever ran them. The timeline
# (from the start and end columns) says how long the cases spanned, how many
# ran at once, and which finished last: the suite's tail.
#
#   lab/scripts/trace-summary.sh TRACE_FILE [top-N]
set -euo pipefail
trace=$1
top=${2:-15}
awk -F'\t' '{ total += $4; call += $5; wait += $6; calls += $7; starts += $8; exclusive += $11; n++ }
  END {
    printf "%d cases, %d runner calls, %d runner processes started\n", n, calls, starts
    printf "summed over cases: %.1f s = %.1f s in runner calls + %.1f s waiting for GPU slots + %.1f s on the host\n",
           total / 1000, call / 1000, wait / 1000, (total - call - wait) / 1000
    printf "runner calls that held the GPU exclusively (timed): %.1f s\n", exclusive / 1000
  }' "$trace"
printf '\n%-44s %8s %8s %8s %8s %11s\n' "test (top $top by case time)" "total s" "calls s" "wait s" "host s" "exclusive s"
awk -F'\t' '{ t[$1] += $4; c[$1] += $5; w[$1] += $6; a[$1] += $11 }
  END { for (k in t) printf "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\n", k, t[k] / 1000, c[k] / 1000, w[k] / 1000, (t[k] - c[k] - w[k]) / 1000, a[k] / 1000 }' \
  "$trace" | sort -t$'\t' -k2 -rn | head -n "$top" | awk -F'\t' '{ printf "%-44s %8s %8s %8s %8s %11s\n", $1, $2, $3, $4, $5, $6 }'
# By gate: where the runner calls' time goes, whichever test ran them.
printf '\n%-30s %8s %7s %11s %7s\n' "gate (top $top by call time)" "calls s" "share" "exclusive s" "calls"
awk -F'\t' '{ c[$2] += $5; a[$2] += $11; n[$2] += $7; all += $5 }
  END { for (k in c) printf "%s\t%.1f\t%.1f%%\t%.1f\t%d\n", k, c[k] / 1000, (all > 0 ? 100 * c[k] / all : 0), a[k] / 1000, n[k] }' \
  "$trace" | sort -t$'\t' -k2 -rn | head -n "$top" | awk -F'\t' '{ printf "%-30s %8s %7s %11s %7s\n", $1, $2, $3, $4, $5 }'
printf '\n%-60s %8s %8s %8s %8s\n' "case (top $top)" "total ms" "calls ms" "wait ms" "host ms"
sort -t$'\t' -k4 -rn "$trace" | head -n "$top" |
  awk -F'\t' '{ printf "%-60s %8d %8d %8d %8d\n", $1 "/" $3, $4, $5, $6, $4 - $5 - $6 }'

# The timeline (lines from before the start and end columns have none): a
# sweep over the start (+1) and end (-1) events in time order, ends first.
first=$(awk -F'\t' 'NF >= 10 && $9 > 0 && (f == "" || $9 < f) { f = $9 } END { print f }' "$trace")
if [ -n "$first" ]; then
  awk -F'\t' 'NF >= 10 && $9 > 0 { print $9, 1; print $10, -1 }' "$trace" | sort -k1,1n -k2,2n |
    awk -v f="$first" '{ area += busy * ($1 - (NR == 1 ? f : prev)); prev = $1; busy += $2; if (busy > peak) peak = busy }
      END { printf "\ntimeline: the cases spanned %.1f s, at most %d at once, %.1f on average\n",
                   (prev - f) / 1000, peak, (prev > f ? area / (prev - f) : 0) }'
  printf '%-60s %8s %8s\n' "the $top cases that finished last" "start s" "end s"
  awk -F'\t' -v f="$first" 'NF >= 10 && $9 > 0 { printf "%s\t%.1f\t%.1f\n", $1 "/" $3, ($9 - f) / 1000, ($10 - f) / 1000 }' "$trace" |
    sort -t$'\t' -k3 -rn | head -n "$top" | awk -F'\t' '{ printf "%-60s %8s %8s\n", $1, $2, $3 }'
fi
