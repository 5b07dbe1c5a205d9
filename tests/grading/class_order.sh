#!/usr/bin/env bash
# A class's gate tests that read back what an earlier gate asked (GateSpec::
# after) depend on that gate's test of the same student, and on nothing else:
# each day's registration of one student, as a class build writes it, read
# back by ctest itself.
#   class_order.sh BUILD_DIR
set -uo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
days=0
for driver in "$build"/harness/*/*_tests; do
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
want = {"s0007.38.levels": ["s0007.38.distances"], "s0007.38.frontier_total": ["s0007.38.distances"]}
for name, deps in want.items():
    if edges.get(name) != deps:
        print(f"{name} depends on {edges.get(name)}, want {deps}: it would ask day 38's searches again")
        failures += 1
for name in sorted(set(edges) - set(want)):
    print(f"{name} depends on {edges[name]}: no gate declares that")
    failures += 1
if failures:
    sys.exit(1)
print(f"{len(edges)} class tests wait for the gate whose answers they read back:",
      ", ".join(f"{n} after {' '.join(d)}" for n, d in sorted(edges.items())))
PY
