#!/usr/bin/env bash
# What each GPU's slots were doing, from the lines GRADING_SLOT_TRACE=<file>
# collects (harness/core/include/harness/gpu_slots.h: GPU, use, when asked
# for, got and given back in epoch microseconds, process). Every moment from
# the first slot asked for to the last given back is one of:
#   exclusive      an exclusive caller (a timed call, a scope, a deep search) has the GPU
#   draining       one waits for the calls and runner starts already under way to end;
#                  no new call or start begins
#   shared         runner calls share the GPU, each in its time slices
#   starting only  runners' processes and contexts starting, and no call
#   no call        nothing asks for the GPU: the tests' host work and their own starts
# and, after the holds that ended with callers waiting, how long until the
# GPU had a call or start again (idle), and until each of those callers had
# its slot (their wake-up).
# With --from and --to (epoch microseconds, either or both), only the moments
# between them count: a part of a class run, say; a drain or hold under way
# as the window opens counts. Lines of other uses (a class test's "turn")
# are not the GPU's and are left out.
#
#   lab/scripts/slot-timeline.sh [--from US] [--to US] SLOT_TRACE_FILE
set -euo pipefail
from=0 to=9e18
while [[ $# -gt 1 ]]; do
  case "$1" in
    --from) from=$2; shift 2 ;;
    --to) to=$2; shift 2 ;;
    *) echo "usage: slot-timeline.sh [--from US] [--to US] SLOT_TRACE_FILE" >&2; exit 2 ;;
  esac
done
trace=$1
[ -s "$trace" ] || { echo "no slot trace in $trace"; exit 0; }
# One event per change of a count: P pending exclusive, H held exclusively, S shared,
# T starting, W waiting (any use, from asked to got; with the line's number).
awk -F'\t' 'NF >= 5 {
    print $1, $3, "W", 1, NR; print $1, $4, "W", -1, NR
    if ($2 == "exclusive") { print $1, $3, "P", 1; print $1, $4, "P", -1; print $1, $4, "H", 1; print $1, $5, "H", -1 }
    else if ($2 == "shared") { print $1, $4, "S", 1; print $1, $5, "S", -1 }
    else if ($2 == "startup") { print $1, $4, "T", 1; print $1, $5, "T", -1 }
  }' "$trace" | sort -k1,1 -k2,2n | awk -v from="$from" -v to="$to" '
  BEGIN { windowed = from > 0 || to < 9e18 }
  function flush(g) {
    if (!seen) return
    span = ((last < to ? last : to) - (first > from ? first : from)) / 1e6
    if (windowed && span <= 0) return
    if (windowed) printf "GPU %s: %.1f s in the window asked for\n", g, span
    else printf "GPU %s: %.1f s from the first slot asked for to the last given back\n", g, span
    row("exclusive", t["exclusive"], span, sprintf("(%d holds)", holds))
    row("draining", t["drain"], span, sprintf("(%d drains, %.2f s each, %.1f calls and %.1f starts still under way on average)",
        drains, drains ? t["drain"] / 1e6 / drains : 0, t["drain"] ? busyDrain / t["drain"] : 0,
        t["drain"] ? startsDrain / t["drain"] : 0))
    row("shared", t["shared"], span, sprintf("(%.1f calls at once on average)", t["shared"] ? busyShared / t["shared"] : 0))
    row("starting only", t["start"], span, "")
    row("no call", t["none"], span, "")
    if (ended) printf "  after a hold   %7.1f ms idle on average, %.1f ms until each caller waiting got its slot (%d holds ended with %d waiting)\n", idle / ended / 1e3, woken ? wake / woken / 1e3 : 0, ended, woken
  }
  function row(name, us, span, note) {
    printf "  %-14s %7.1f s %4.0f%%%s\n", name, us / 1e6, (span > 0 ? 100 * us / 1e6 / span : 0), (note == "" ? "" : "  " note)
  }
  !seen || $1 "" != gpu {
    flush(gpu)
    seen = 1; gpu = $1 ""; first = $2; last = $2; P = H = S = T = holds = drains = busyDrain = startsDrain = busyShared = 0
    W = ended = idle = woken = wake = 0; endedAt = ""
    split("", waiting); split("", waitedFrom)
    split("", t)
  }
  {
    lo = last > from ? last : from
    hi = $2 < to ? $2 : to
    dt = hi > lo ? hi - lo : 0
    inside = $2 >= from && $2 < to
    state = H > 0 ? "exclusive" : P > 0 ? "drain" : S > 0 ? "shared" : T > 0 ? "start" : "none"
    t[state] += dt
    if (state == "drain") { busyDrain += S * dt; startsDrain += T * dt }
    if (state == "shared") busyShared += S * dt
    if (last < from && $2 >= from) {  # the window opens: what is under way counts once
      if (state == "exclusive") holds++
      if (state == "drain") drains++
    }
    last = $2
    if ($3 == "P") { if (P == 0 && H == 0 && $4 > 0 && inside) drains++; P += $4 }
    else if ($3 == "H") {
      if ($4 > 0 && inside) holds++
      H += $4
      if ($4 < 0 && H == 0 && W > 0 && inside) {
        endedAt = $2; ended++
        for (id in waiting) waitedFrom[id] = $2
      }
    }
    else if ($3 == "W") {
      if ($4 > 0) { waiting[$5] = 1; W++; next }
      delete waiting[$5]; W--
      if (endedAt != "") { idle += $2 - endedAt; endedAt = "" }
      if ($5 in waitedFrom) { wake += $2 - waitedFrom[$5]; woken++; delete waitedFrom[$5] }
    }
    else if ($3 == "S") S += $4
    else T += $4
  }
  END { flush(gpu) }'
