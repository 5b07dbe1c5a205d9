#!/usr/bin/env bash
# A hostile or planted file that names timed and untimed gates is two ctest
# tests: its untimed gates beside the rest of the suite, its timed ones with
# the machine to themselves (RUN_SERIAL, label serial), each told its part;
# a file that names one kind is one test under its own name. A planted
# bug's tests run with shrinking off, and its shrink is a test of its own,
# labelled nightly but for the day's first. Day 34's registration, as
# --emit-ctest writes it, read back by ctest itself.
#   expectation_parts.sh BUILD_DIR
set -uo pipefail
build=$1
driver="$build/harness/day34/day34_tests"
[ -x "$driver" ] || { echo "no day 34 driver in $build"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '// fails: none\n// passes: 34.stencil 34.speed\n' >"$work/both.cu"
printf '// fails: none\n// passes: 34.stencil\n' >"$work/untimed.cu"
printf '// fails: 34.speed\n// expect: slower\n' >"$work/timed.cu"
printf 'fails: 34.stencil\nexpect: wrong\n' >"$work/plant.txt"
{
  for name in both untimed timed; do
    printf 'expect\thostile\t%s\t/nonexistent/runner\t%s\n' "$name" "$work/$name.cu"
  done
  for name in first second; do
    printf 'expect\tplanted\t%s\t/nonexistent/runner\t%s\n' "$name" "$work/plant.txt"
  done
} >"$work/manifest.tsv"
"$driver" --emit-ctest "$work/CTestTestfile.cmake" --manifest "$work/manifest.tsv" || { echo "--emit-ctest failed"; exit 1; }
ctest --test-dir "$work" --show-only=json-v1 >"$work/tests.json" || { echo "ctest cannot read it"; exit 1; }
python3 - "$work/tests.json" <<'PY'
import json, sys
tests = {t["name"]: t for t in json.load(open(sys.argv[1]))["tests"]}
def props(t):
    return {p["name"]: p["value"] for p in t.get("properties", [])}
def part(t):
    cmd = t["command"]
    return cmd[cmd.index("--part") + 1] if "--part" in cmd else None
want = {  # name: (part, serial)
    "hostile.day34.both": ("untimed", False),
    "hostile.day34.both.timed": ("timed", True),
    "hostile.day34.untimed": (None, False),
    "hostile.day34.timed": (None, True),
    "planted.day34.first": (None, False),
    "planted.day34.first.shrink": ("fails", False),
    "planted.day34.second": (None, False),
    "planted.day34.second.shrink": ("fails", False),
}
failures = 0
if set(tests) != set(want):
    print(f"registered {sorted(tests)}, want {sorted(want)}")
    sys.exit(1)
for name, (p, serial) in want.items():
    t = props(tests[name])
    got = (part(tests[name]), bool(t.get("RUN_SERIAL")), "serial" in t.get("LABELS", []))
    if got != (p, serial, serial):
        print(f"{name}: part {got[0]}, RUN_SERIAL {got[1]}, label serial {got[2]}; want part {p}, serial {serial}")
        failures += 1
# (shrinking off, labels): a planted bug's own test asserts the failure alone
shrinks = {"planted.day34.first": ("off", None), "planted.day34.second": ("off", None),
           "planted.day34.first.shrink": (None, False), "planted.day34.second.shrink": (None, True)}
for name, (shrink, nightly) in shrinks.items():
    t = props(tests[name])
    env = [v for v in t.get("ENVIRONMENT", []) if v.startswith("GRADING_SHRINK=")]
    got_shrink = env[0].split("=", 1)[1] if env else None
    if got_shrink != shrink:
        print(f"{name}: GRADING_SHRINK {got_shrink}, want {shrink}")
        failures += 1
    if nightly is not None and ("nightly" in t.get("LABELS", [])) != nightly:
        print(f"{name}: labelled nightly {not nightly}, want {nightly} (the day's first shrink runs in every suite)")
        failures += 1
if failures:
    sys.exit(1)
print("a file naming timed and untimed gates is two tests, its timed part alone serial")
PY
