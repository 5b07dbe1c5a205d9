#!/usr/bin/env bash
# The labels that say which tests may hold the GPU exclusively: every timed
# gate's test and every test whose calls may hold the GPU exclusively carry
# "exclusive"; a gate whose calls all share the GPU does not.
#   ctest_labels.sh BUILD_DIR
set -uo pipefail
build=$1
list() { ctest --test-dir "$build" -N "$@" | sed -n 's/^ *Test *#[0-9]*: //p' | sort; }
exclusive=$(list -L '^exclusive$')
timed=$(list -L '^timed$')
fail=0
[[ -n "$timed" ]] || { echo "no test is labelled timed: nothing was registered"; exit 1; }
missing=$(comm -23 <(echo "$timed") <(echo "$exclusive"))
[[ -z "$missing" ]] || { echo "timed but not exclusive: $missing"; fail=1; }
# A gate's tests: itself, or its shards (name.shardKofN) where it has many cases.
all=$(list)
gate_tests() {
  local tests
  tests=$(grep -E "^${1//./\\.}(\.shard[0-9]+of[0-9]+)?$" <<<"$all")
  [[ -n "$tests" ]] || { echo "no test $1" >&2; return 1; }
  echo "$tests"
}
# Day 38's searches of the chain and the grid are hundreds of levels deep.
for t in {reference,submission}.38.{distances,levels,frontier_total}; do
  tests=$(gate_tests "$t") || { fail=1; continue; }
  for s in $tests; do
    grep -qx "$s" <<<"$exclusive" || { echo "$s holds the GPU for its deep searches but is not labelled exclusive"; fail=1; }
  done
done
for t in submission.38.walk submission.34.stencil submission.msw.index submission.52.diamond; do
  tests=$(gate_tests "$t") || { fail=1; continue; }
  for s in $tests; do
    grep -qx "$s" <<<"$exclusive" && { echo "$s shares the GPU but is labelled exclusive"; fail=1; }
  done
done
# The GPU suite runs the tests labelled serial (RUN_SERIAL: the speed gates,
# each day's timed test, which holds the planted bugs they catch) last, with
# nothing else on the machine.
serial=$(list -L '^serial$')
for t in {reference,submission}.{34,38}.speed timed.day38; do
  grep -qx "$t" <<<"$serial" || { echo "$t runs alone on the machine but is not labelled serial"; fail=1; }
done
not_serial=$(ctest --test-dir "$build" --show-only=json-v1 -L '^serial$' | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tests"]:
    if not any(p["name"] == "RUN_SERIAL" and p["value"] for p in t.get("properties", [])):
        print(t["name"])')
[[ -z "$not_serial" ]] || { echo "labelled serial but not RUN_SERIAL: $not_serial"; fail=1; }
((fail == 0)) && echo "$(wc -l <<<"$exclusive") tests labelled exclusive, $(wc -l <<<"$timed") of them timed, $(wc -l <<<"$serial") serial"
exit $fail
