#!/usr/bin/env bash
# lab/scripts/kill-teardown.sh against a fake kill_teardown (a spinner that
# sleeps, a probe at a steady pace): each round finds the processes inside
# the sandbox, and they end after the outer bwrap was reaped, never before;
# the probe's pace is read back. Skipped (77) without a sandbox that can
# unshare the PID namespace.
#   kill_teardown.sh REPO_ROOT
set -uo pipefail
source "$(dirname "$0")/../../tests/grading/script_test.sh"
source "$root/.ci/find-bwrap.sh"
if [ -z "$bwrap" ] || ! "$bwrap" --unshare-pid --ro-bind / / --proc /proc true 2>/dev/null; then
  echo "skip: no bwrap that can unshare the PID namespace here"
  exit 77
fi
cat >"$work/fake" <<'SH'
#!/bin/bash
if [ "$1" = spin ]; then echo launched; exec sleep 60; fi
echo "start $(date +%s.%N)"
begun=$(date +%s%N)
while :; do
  ms=$((($(date +%s%N) - begun) / 1000000))
  ((ms > $2 * 1000)) && break
  echo "$ms 120"
  sleep 0.05
done
SH
chmod +x "$work/fake"
got=$(KILL_TEARDOWN="$work/fake" ROUND_S=7 bash "$root/lab/scripts/kill-teardown.sh" "$work/out" 2 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "exit $rc: $got"
grep -q '^pids cgroup: ' <<<"$got" || fail "no cgroup line: $got"
rounds=$(grep -c '^round: ' <<<"$got")
[ "$rounds" = 2 ] || fail "$rounds rounds, want 2: $got"
while read -r reaped inside ended; do
  ((inside >= 2)) || fail "$inside processes found inside the sandbox, want its init and the spinner"
  ((ended >= reaped)) || fail "those inside gone after $ended ms, before the outer bwrap was reaped ($reaped ms)"
done < <(sed -n 's/^round: reaped \([0-9]*\) ms after the kill, the \([0-9]*\) processes inside gone after \([0-9]*\) ms.*/\1 \2 \3/p' <<<"$got")
grep -q 'probe 120 us alone, 120 us beside the spinner' <<<"$got" || fail "the probe's pace not read back: $got"
pgrep -f "$work/out/kill_teardown spin" >/dev/null && fail "a spinner outlived the script"
finish "kill teardown"
