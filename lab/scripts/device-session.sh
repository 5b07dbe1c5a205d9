#!/usr/bin/env bash
# The GPU checks a session ends with, fitted to device calls of 600 s: the
# GPU suite (.ci/gpu-suite.sh without the project tests, which .ci/run
# runs), whether the machine lets the grader make a pids cgroup, then the
# chaos class (.ci/chaos-class.sh) started in a session of its own, so that
# it outlives the call, and polled until the call's deadline. `--poll`, in a
# later call on the same warm machine (within its idle release), polls it on.
# Each call leaves under $OUT: suite/ (summary.txt first; the first call only)
# and chaos.tar.gz (.ci/chaos-collect.sh's; read it here with
# .ci/chaos-verdicts.py DEST/graded DEST/alone --partial).
#   lab/scripts/device-session.sh            (a device call, carrying .deps)
#   lab/scripts/device-session.sh --poll     (the calls after it)
# Environment: DEADLINE_S (seconds from the call's start by which the chaos
# output is collected; default 570), SUITE_S (the suite's limit; default
# 480), CHAOS_HONEST (default 8), CHAOS_CLASS_FIRST (default 1: the class
# before the variants alone, so a run cut short still shows the class).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
began=$(date +%s)
out=${OUT:?a device call sets OUT}
chaos=/tmp/chaos

if [[ "${1:-}" != --poll ]]; then
  bash lab/scripts/pids-cgroup.sh >"$out/cgroup.txt"
  mkdir -p "$out/suite"
  OUT=$out/suite EXCLUDE_LABELS=project SKIP_CHAOS=1 SKIP_BENCH=1 timeout "${SUITE_S:-480}" \
    .ci/gpu-suite.sh >"$out/suite/suite.txt" 2>&1
  echo "suite: exit $? after $(($(date +%s) - began)) s" >>"$out/suite/summary.txt"
  rm -rf "$chaos" && mkdir -p "$chaos"
  date +%s >"$chaos/started"
  (CHAOS_CLASS_FIRST=${CHAOS_CLASS_FIRST:-1} CHAOS_HONEST=${CHAOS_HONEST:-8} setsid nohup \
    bash .ci/chaos-class.sh /tmp/grading-gpu "$chaos" >"$chaos/run.log" 2>&1 </dev/null &)
fi

# The chaos run is over once both gradings have said how they ended.
over() {
  grep -q "the class: exit" "$chaos/chaos-class.txt" &&
    grep -q "variants alone, one at a time: exit" "$chaos/chaos-class.txt"
}
while (($(date +%s) - began < ${DEADLINE_S:-570})) && ! over 2>/dev/null; do sleep 5; done
bash .ci/chaos-collect.sh "$chaos" "$out/chaos.tar.gz"
cat "$out/suite/summary.txt" 2>/dev/null
cat "$chaos/chaos-class.txt" 2>/dev/null
echo "chaos: $(($(date +%s) - $(cat "$chaos/started"))) s since its start"
