#!/usr/bin/env bash
# A class's gate tests that read back what an earlier gate asked (GateSpec::
# after) depend on that gate's test of the same student, the same part of it
# where a gate is graded in two (its shared cases in the first pass, those
# holding the GPU in the second), and on nothing else; and only the parts and
# gates that hold the GPU are labelled alone (the second pass). Each day's
# registration of one student, as a class build writes it, read back by
# ctest itself.
#   class_order.sh BUILD_DIR
set -uo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
days=0
for driver in "$build"/days/*/*_tests; do
  day=$(basename "$driver" _tests)
  [[ -x "$driver" && "$day" != *_host ]] || continue
  mkdir -p "$work/$day"
  printf 'student\ts0007\t/nonexistent/runner\n' >"$work/$day/manifest.tsv"
  "$driver" --emit-ctest "$work/$day/CTestTestfile.cmake" --manifest "$work/$day/manifest.tsv" ||
    { echo "$day: --emit-ctest failed"; exit 1; }
  ctest --test-dir "$work/$day" --show-only=json-v1 >"$work/$day.json" || { echo "$day: ctest cannot read it"; exit 1; }
  days=$((days + 1))
done
((days > 0)) || { echo "no day's driver under $build/days"; exit 1; }
python3 - "$work"/*.json <<'PY'
import json, sys
failures, edges = 0, {}
for path in sys.argv[1:]:
    tests = json.load(open(path))["tests"]
    names = {t["name"] for t in tests}
    for t in tests:
        for p in t.get("properties", []):
            if p["name"] != "DEPENDS":
                continue
            for d in p["value"]:
                edges[t["name"]] = edges.get(t["name"], []) + [d]
                if d not in names or not d.startswith("s0007."):
                    print(f"{t['name']} depends on {d}, which is not a test of the same student")
                    failures += 1
want = {f"s0007.38.{gate}.shard{k}of2": [f"s0007.38.distances.shard{k}of2"]
        for gate in ("levels", "frontier_total") for k in (1, 2)}
# Day 38's searching gates hold the GPU for their deep searches only: those
# are part 2, in the second pass; the timed gates are whole and alone.
alone = {f"s0007.38.{gate}.shard2of2" for gate in ("distances", "levels", "frontier_total")}
shared = {f"s0007.38.{gate}.shard1of2" for gate in ("distances", "levels", "frontier_total")}
labels = {}
for path in sys.argv[1:]:
    for t in json.load(open(path))["tests"]:
        for p in t.get("properties", []):
            if p["name"] == "LABELS":
                labels[t["name"]] = set(p["value"])
for name in sorted(alone | shared):
    if name not in labels:
        print(f"{name} is not registered: day 38's searching gates are not graded in two parts")
        failures += 1
    elif ("alone" in labels[name]) != (name in alone):
        print(f"{name} is {'not ' if name in alone else ''}labelled alone: {sorted(labels[name])}")
        failures += 1
for name in ("s0007.38.timing", "s0007.38.speed"):
    if "alone" not in labels.get(name, set()):
        print(f"{name} is not a whole test labelled alone: {sorted(labels.get(name, []))}")
        failures += 1
for name, deps in want.items():
    if edges.get(name) != deps:
        print(f"{name} depends on {edges.get(name)}, want {deps}: it would ask day 38's searches again")
        failures += 1
for name in sorted(set(edges) - set(want)):
    print(f"{name} depends on {edges[name]}: no gate declares that")
    failures += 1
# The two parts of a gate together run each of its cases once.
import subprocess
def listed(command):
    out = subprocess.run(command + ["--gtest_list_tests"], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if line.startswith("  ")]
commands = {}
for path in sys.argv[1:]:
    for t in json.load(open(path))["tests"]:
        commands[t["name"]] = t["command"]
for first in sorted(n for n in commands if n.endswith(".shard1of2")):
    whole = commands[first]
    at = whole.index("--cases")
    whole = whole[:at] + whole[at + 2:]
    parts = listed(commands[first]) + listed(commands[first[:-len("1of2")] + "2of2"])
    if sorted(parts) != sorted(listed(whole)) or not listed(commands[first]):
        print(f"{first[:-len('.shard1of2')]}: its parts run {sorted(parts)}, the gate {sorted(listed(whole))}")
        failures += 1
if failures:
    sys.exit(1)
print(f"{len(edges)} class tests wait for the gate whose answers they read back:",
      ", ".join(f"{n} after {' '.join(d)}" for n, d in sorted(edges.items())))
PY
