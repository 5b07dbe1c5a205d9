#!/usr/bin/env python3
"""Checks the chaos class (.ci/chaos-class.sh): every honest student's
verdict and points per gate equal to its variant graded alone, and every
hostile neighbour built (so it ran) and failing 38.distances with a message. Students are named
honest<NN>_<variant> and hostile_<name>; the alone run's students are named
by variant. Reads each graded folder's names.tsv and results.json files.

  chaos-verdicts.py CLASS_GRADED_DIR ALONE_GRADED_DIR      exit 1 on any difference
"""
import json
import os
import sys


def graded(folder):
    """real name -> {gate: test} for every student of a graded class folder."""
    out = {}
    for line in open(os.path.join(folder, "names.tsv")):
        staged, name = line.rstrip("\n").split("\t")
        path = os.path.join(folder, staged, "results.json")
        tests = json.load(open(path))["tests"] if os.path.exists(path) else None
        out[name] = None if tests is None else {t["name"].split(" ", 1)[0]: t for t in tests}
    return out


def status(test):
    """passed, failed, or (a test results.json leaves without one) what it says it was."""
    return test.get("status") or test.get("extra_data", {}).get("result", "not run")


def first_failure(output):
    """The failure's own line, without what shrinking found (its budget is seconds)."""
    return output.split("; smallest failing input found", 1)[0]


class_dir, alone_dir = sys.argv[1], sys.argv[2]
students, alone = graded(class_dir), graded(alone_dir)
problems, notes, checked = [], [], 0
for name, gates in sorted(students.items()):
    if gates is None:
        problems.append(f"{name}: not graded (no results.json)")
        continue
    if name.startswith("hostile_"):
        checked += 2
        built = gates.get("day38.builds")
        if built is None or status(built) != "passed":
            problems.append(f"{name}: day38.builds should pass (a neighbour that does not build never runs), got "
                            f"{built and status(built)}: {(built or {}).get('output', '')[:200]}")
        t = gates.get("38.distances")
        if t is None or status(t) != "failed" or t["score"] != 0 or not t.get("output", "").strip():
            problems.append(f"{name}: 38.distances should fail with a message, got "
                            f"{t and status(t)} {t and t['score']}: {(t or {}).get('output', '')[:200]}")
        continue
    variant = name.split("_", 1)[1]
    want = alone.get(variant)
    if want is None:
        problems.append(f"{name}: its variant {variant} was not graded alone")
        continue
    for gate in sorted(set(gates) | set(want)):
        checked += 1
        got, w = gates.get(gate), want.get(gate)
        if got is None or w is None:
            problems.append(f"{name}: {gate} graded {'alone only' if got is None else 'in the class only'}")
        elif (status(got), got["score"]) != (status(w), w["score"]):
            problems.append(f"{name}: {gate} {status(got)} {got['score']}/{got['max_score']} in the class, "
                            f"{status(w)} {w['score']}/{w['max_score']} alone: {first_failure(got.get('output', ''))[:300]}")
        elif first_failure(got.get("output", "")) != first_failure(w.get("output", "")):
            notes.append(f"{name}: {gate}: the same verdict, another first failure: "
                         f"{first_failure(got.get('output', ''))[:160]} | alone: {first_failure(w.get('output', ''))[:160]}")
for n in notes:
    print("note", n)
for p in problems:
    print("DIFFERENT", p)
honest = sum(1 for n in students if not n.startswith("hostile_"))
print(f"chaos class: {honest} honest students, {len(students) - honest} neighbours; "
      f"{checked - len(problems)} of {checked} checks as graded alone or as required")
sys.exit(1 if problems else 0)
