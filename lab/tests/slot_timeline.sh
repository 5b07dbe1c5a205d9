#!/usr/bin/env bash
# lab/scripts/slot-timeline.sh on a recorded slot trace whose answer is worked out by
# hand (fixtures/slots/two_gpus.tsv, times in tenths of a second):
#   GPU 0: shared 0-4 s and 1-2.5 s; a timed call asks at 3 s, drains until
#   the first ends at 4 s, holds to 6 s; another asks at 5 s behind it (no
#   drain of its own), drains 6-6.02 s and holds 6.02-6.5 s; a call asking at
#   5.5 s waits out both holds and shares 6.51-6.6 s; a runner starts
#   6.5-7 s; nothing 7-8 s; shared 8-9 s. After the two holds the GPU was
#   idle 20 ms and 0 ms (the start), and the callers waiting got their slots
#   20 ms and 10 ms after the last hold ended. GPU 1, counted on its own: shared 0-2 s; a runner
#   starts 2-3 s, and a timed call asking at 2.5 s drains for that start
#   alone, then holds 3-3.5 s.
# Windows of it (--from, --to): 3.5-8.5 s opens in the first drain (counted,
# 0.5 s of its 1.02) and ends inside the last shared call; 5-8.5 s opens in
# the first hold (counted); GPU 1, over by 3.5 s, has no moment in either.
# And an empty trace says so instead of printing zeros.
#   slot_timeline.sh REPO_ROOT
set -uo pipefail
source "$(dirname "$0")/../../tests/grading/script_test.sh"
fixture="$root/tests/grading/fixtures/slots/two_gpus.tsv"
first=1796132028000000  # the fixture's first moment, epoch microseconds
expect_timeline() {  # what, the output wanted, then slot-timeline.sh's options
  local what=$1 want=$2 got
  shift 2
  got=$(bash "$root/lab/scripts/slot-timeline.sh" "$@" "$fixture" 2>&1)
  [ "$got" = "$want" ] || fail "$what
--- got
$got
--- want
$want"
}
expect_timeline "two_gpus.tsv" "GPU 0: 9.0 s from the first slot asked for to the last given back
  exclusive          2.5 s   28%  (2 holds)
  draining           1.0 s   11%  (1 drains, 1.02 s each, 1.0 calls and 0.0 starts still under way on average)
  shared             4.1 s   45%  (1.4 calls at once on average)
  starting only      0.4 s    5%
  no call            1.0 s   11%
  after a hold      10.0 ms idle on average, 15.0 ms until each caller waiting got its slot (2 holds ended with 2 waiting)
GPU 1: 3.5 s from the first slot asked for to the last given back
  exclusive          0.5 s   14%  (1 holds)
  draining           0.5 s   14%  (1 drains, 0.50 s each, 0.0 calls and 1.0 starts still under way on average)
  shared             2.0 s   57%  (1.0 calls at once on average)
  starting only      0.5 s   14%
  no call            0.0 s    0%"
expect_timeline "window 3.5-8.5 s" "GPU 0: 5.0 s in the window asked for
  exclusive          2.5 s   50%  (2 holds)
  draining           0.5 s   10%  (1 drains, 0.52 s each, 1.0 calls and 0.0 starts still under way on average)
  shared             0.6 s   12%  (1.0 calls at once on average)
  starting only      0.4 s    8%
  no call            1.0 s   20%
  after a hold      10.0 ms idle on average, 15.0 ms until each caller waiting got its slot (2 holds ended with 2 waiting)" \
  --from $((first + 3500000)) --to $((first + 8500000))
expect_timeline "window 5-8.5 s" "GPU 0: 3.5 s in the window asked for
  exclusive          1.5 s   42%  (2 holds)
  draining           0.0 s    1%  (0 drains, 0.00 s each, 0.0 calls and 0.0 starts still under way on average)
  shared             0.6 s   17%  (1.0 calls at once on average)
  starting only      0.4 s   12%
  no call            1.0 s   29%
  after a hold      10.0 ms idle on average, 15.0 ms until each caller waiting got its slot (2 holds ended with 2 waiting)" \
  --from $((first + 5000000)) --to $((first + 8500000))
: >"$work/empty.tsv"
got=$(bash "$root/lab/scripts/slot-timeline.sh" "$work/empty.tsv" 2>&1)
[ "$got" = "no slot trace in $work/empty.tsv" ] || fail "empty trace: $got"
finish "slot-timeline.sh: two GPUs worked out by hand, two windows of them, an empty trace"
