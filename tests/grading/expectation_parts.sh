#!/usr/bin/env bash
# A hostile or planted file's untimed gates are a ctest test of its own
# beside the rest of the suite (told --part untimed where it names timed
# gates too); the timed gates of every such file of the day are one test,
# timed.<day>, with the machine to itself (RUN_SERIAL, label serial), its
# limit their cases' and its labels their suites'. A planted bug's tests
# run with shrinking off, and its shrink is a test of its own, labelled
# nightly but for the day's first. Day 34's registration, as --emit-ctest
# writes it, read back by ctest itself; then the timed test's own process
# lists the gtest tests it runs.
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
    "hostile.day34.untimed": (None, False),
    "timed.day34": (None, True),
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
timed = tests["timed.day34"]
cmd, t = timed["command"], props(timed)
if cmd[cmd.index("--suite") + 1] != "timed" or "--manifest" not in cmd:
    print(f"timed.day34 runs {cmd}, want --suite timed --manifest FILE")
    failures += 1
if not {"hostile", "timed", "exclusive"} <= set(t.get("LABELS", [])) or "planted" in t.get("LABELS", []):
    print(f"timed.day34 is labelled {t.get('LABELS')}, want hostile, timed and exclusive (no planted bug has timed gates here)")
    failures += 1
if "GRADING_SHRINK=off" not in t.get("ENVIRONMENT", []):
    print("timed.day34 runs with shrinking on")
    failures += 1
if failures:
    sys.exit(1)
print("a file's untimed gates are a test of its own; the day's timed gates one serial test")
PY
[ $? -eq 0 ] || exit 1
# The timed test's process: a gtest test per file with timed gates, none for the others.
listed=$("$driver" --suite timed --manifest "$work/manifest.tsv" --gtest_list_tests) || { echo "--suite timed failed"; exit 1; }
got=$(sed -n 's/^  //p; s/\.$//p' <<<"$listed" | paste -sd' ')
want="hostile both timed"
[ "$got" = "$want" ] || { echo "the timed test runs: $got; want: $want"; exit 1; }
echo "its process runs the timed gates of: both, timed"
