#!/usr/bin/env bash
# Runner starts a class makes, per student and day, from its call trace
# (GRADING_CALL_TRACE: label, ms asked, ms the runner took, answer bytes,
# exclusive ms, epoch ms, runner path, outcome). Each test process starts a
# session per runner it asks, and its first call is the probe, so probes
# count those starts; a session started again within a case (after a hang or
# a fault) is in the case trace's starts column instead. A class's runners
# are <day>_runner_<sNNNN>; any other (the course's, the instructor's) is
# counted apart. --before US (epoch microseconds, grade_class.sh's
# OUT/verdicts-out) counts only the probes asked before then: a class's
# grading without the reruns that shrink its failures.
#
#   lab/scripts/runner-starts.sh [--before US] CALL_TRACE
set -euo pipefail
before=""
if [ "${1:-}" = "--before" ]; then before=$2; shift 2; fi
[ $# -eq 1 ] || { echo "usage: $0 [--before US] CALL_TRACE" >&2; exit 2; }
awk -F'\t' -v before="$before" '
  $1 != "probe" { next }
  before != "" && $6 * 1000 >= before + 0 { next }
  {
    n = split($7, part, "/"); runner = part[n]
    if (match(runner, /_runner_s[0-9]+$/)) {
      day = substr(runner, 1, RSTART - 1); student = substr(runner, RSTART + 8)
      starts[student, day]++; total[student]++; days[day] = 1; students[student] = 1
    } else {
      other[runner]++
    }
  }
  END {
    count = 0
    for (s in students) count++
    if (count == 0) { print "no class runner was probed"; exit }
    ndays = 0
    for (d in days) dayList[++ndays] = d
    for (i = 1; i <= ndays; i++) for (j = i + 1; j <= ndays; j++) if (dayList[j] < dayList[i]) {
      t = dayList[i]; dayList[i] = dayList[j]; dayList[j] = t
    }
    header = sprintf("%-8s", "student")
    for (i = 1; i <= ndays; i++) header = header sprintf(" %7s", dayList[i])
    print "runner starts, one a test process (its probe), per student and day:"
    print header sprintf(" %7s", "all")
    lowest = -1; highest = 0; sum = 0
    for (s in students) {
      line = sprintf("%-8s", s)
      for (i = 1; i <= ndays; i++) line = line sprintf(" %7d", starts[s, dayList[i]])
      print line sprintf(" %7d", total[s]) | "sort"
      sum += total[s]
      if (lowest < 0 || total[s] < lowest) lowest = total[s]
      if (total[s] > highest) highest = total[s]
    }
    close("sort")
    printf "a student: %.1f on average (%d to %d), %d students\n", sum / count, lowest, highest, count
    for (r in other) printf "other runners: %s %d\n", r, other[r] | "sort"
    close("sort")
  }' "$1"
