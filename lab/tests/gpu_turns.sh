#!/usr/bin/env bash
# lab/scripts/gpu-turns.sh against a fake gpu_turns that reports a fixed rate per
# process: the table sums the processes' rates and divides them right, every
# process gets the pattern's arguments and one shared window, and a process
# that fails (or a missing tool, or an unknown pattern) fails the script
# with a message instead of printing a row.
#   gpu_turns.sh REPO_ROOT
set -uo pipefail
source "$(dirname "$0")/../../tests/grading/script_test.sh"

# 1000 launches in 2 s (500/s) per process in any pattern; logs its arguments.
mkdir -p "$work/build/lab"
cat >"$work/build/lab/gpu_turns" <<'SH'
#!/bin/sh
echo "$*" >>"$ARGS_LOG"
[ -n "${FAKE_FAIL:-}" ] && exit 1
echo "$1 1000 2.0000"
SH
chmod +x "$work/build/lab/gpu_turns"

got=$(ARGS_LOG="$work/args" LEAD_S=0 PROCS="1 4" bash "$root/lab/scripts/gpu-turns.sh" "$work/build" 2 2>&1)
want="pattern                   procs   launches/s us a launch, a process    GPU us per launch
launch, wait                  1          500                 2000.0               2000.0
launch, wait                  4         2000                 2000.0                500.0
8 launches, one wait          1          500                 2000.0               2000.0
8 launches, one wait          4         2000                 2000.0                500.0
8 launches 20 us apart        1          500                 2000.0               2000.0
8 launches 20 us apart        4         2000                 2000.0                500.0"
[ "$got" = "$want" ] || fail "the table
  got:
$got
  want:
$want"
[ "$(grep -c '^paced --launches 8 --gap-us 20 --seconds 2 --start-at [0-9]*$' "$work/args")" = 5 ] ||
  fail "paced processes' arguments: $(grep paced "$work/args" | head -2)"
[ "$(grep -c '^burst --launches 8 --seconds 2 ' "$work/args")" = 5 ] || fail "burst processes' arguments"
# The four processes of one row share one window.
[ "$(grep '^sync' "$work/args" | tail -4 | sort -u | wc -l)" = 1 ] || fail "the 4 sync processes got different windows"

out=$(FAKE_FAIL=1 ARGS_LOG=/dev/null LEAD_S=0 PROCS=2 MODES=sync bash "$root/lab/scripts/gpu-turns.sh" "$work/build" 2>&1)
[ $? -ne 0 ] && grep -q "a sync process of 2 failed" <<<"$out" || fail "a failing process: $out"
out=$(bash "$root/lab/scripts/gpu-turns.sh" "$work/nowhere" 2>&1)
[ $? -ne 0 ] && grep -q "no $work/nowhere/lab/gpu_turns" <<<"$out" || fail "no tool: $out"
out=$(ARGS_LOG=/dev/null MODES=spin bash "$root/lab/scripts/gpu-turns.sh" "$work/build" 2>&1)
[ $? -eq 2 ] && grep -q 'no pattern "spin"' <<<"$out" || fail "an unknown pattern: $out"

finish "gpu-turns.sh: table, arguments, failures"
