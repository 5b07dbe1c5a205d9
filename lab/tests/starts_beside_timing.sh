#!/usr/bin/env bash
# lab/scripts/starts-beside-timing.sh against a fake starts_beside_timing: the table
# carries the timed process's figures under each condition, the loops of
# starts run (with --context where the condition says) while it times and
# are gone once the script ends, and a failing timed process, a failing
# start or a missing tool fails the script with a message.
#   starts_beside_timing.sh REPO_ROOT
set -uo pipefail
source "$(dirname "$0")/../../tests/grading/script_test.sh"

# "time" reports how many starts ran while it timed; "start" counts itself
# and fails where FAKE_START_FAIL says: "--context" (only those), "all".
mkdir -p "$work/build/lab"
cat >"$work/build/lab/starts_beside_timing" <<'SH'
#!/bin/bash
if [ "$1" = start ]; then
  echo "$*" >>"$LOG"
  [ -n "${FAKE_START_FAIL:-}" ] && [ "${2:-}" = "${FAKE_START_FAIL#all}" ] && exit 1
  sleep 0.02
  echo "context inactive"
  exit 0
fi
[ -n "${FAKE_TIME_FAIL:-}" ] && exit 1
before=$(wc -l <"$LOG")
sleep 0.3
during=$(( $(wc -l <"$LOG") - before ))
echo "write_64MiB 23.50 1.25 $during"
echo "host_loop_22 300.00 5.00 400.00"
SH
chmod +x "$work/build/lab/starts_beside_timing"

: >"$work/log"
got=$(LOG="$work/log" ROUNDS=2 LOOPS=2 SETTLE_S=0.2 bash "$root/lab/scripts/starts-beside-timing.sh" "$work/build" 100 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "exit $rc: $got"
[ "$(sed -n 1p <<<"$got")" = "a probe's start leaves the context inactive" ] || fail "the first line: $(sed -n 1p <<<"$got")"
[ "$(sed -n 2p <<<"$got")" = "beside the timed process           figure         median us   IQR %     max us" ] ||
  fail "the header: $(sed -n 2p <<<"$got")"
[ "$(grep -c 'host_loop_22 *300.00 *5.00 *400.00$' <<<"$got")" = 6 ] || fail "the loop's rows: $got"
# The max column of the fake's write row is how many starts ran while it timed.
during() { grep "^$1, round $2 *write_64MiB" <<<"$got" | awk '{ print $NF }'; }
for round in 1 2; do  # round 2's "nothing" comes after round 1's loops of starts
  [ "$(during nothing $round)" = "0.00" ] || fail "round $round: starts ran beside nothing: $(during nothing $round)"
  for c in "2 loops of starts" "2 loops of starts + context"; do
    n=$(during "$c" $round)
    awk -v n="$n" 'BEGIN { exit !(n >= 2) }' || fail "$c, round $round: only $n starts ran while it timed"
  done
done
grep -q -- '^start --context$' "$work/log" || fail "no start made a context"
grep -q '^start$' "$work/log" || fail "no plain start"
lines=$(wc -l <"$work/log")
sleep 0.3
[ "$(wc -l <"$work/log")" = "$lines" ] || fail "starts went on after the script ended"

out=$(LOG="$work/log" FAKE_TIME_FAIL=1 ROUNDS=1 SETTLE_S=0.2 bash "$root/lab/scripts/starts-beside-timing.sh" "$work/build" 2>&1)
[ $? -ne 0 ] && grep -q "the timed process failed" <<<"$out" || fail "a failing timed process: $out"
out=$(LOG="$work/log" FAKE_START_FAIL=--context ROUNDS=1 LOOPS=1 SETTLE_S=0.2 bash "$root/lab/scripts/starts-beside-timing.sh" "$work/build" 2>&1)
[ $? -ne 0 ] && grep -q "a starting process failed (1 loops of starts + context)" <<<"$out" || fail "a failing start: $out"
out=$(LOG="$work/log" FAKE_START_FAIL=all ROUNDS=1 SETTLE_S=0.2 bash "$root/lab/scripts/starts-beside-timing.sh" "$work/build" 2>&1)
[ $? -ne 0 ] && grep -q "a start failed on its own" <<<"$out" || fail "a failing first start: $out"
out=$(bash "$root/lab/scripts/starts-beside-timing.sh" "$work/nowhere" 2>&1)
[ $? -ne 0 ] && grep -q "no $work/nowhere/lab/starts_beside_timing" <<<"$out" || fail "no tool: $out"
finish "starts-beside-timing.sh"
