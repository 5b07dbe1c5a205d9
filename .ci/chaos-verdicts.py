#!/usr/bin/env python3
"""Checks the chaos class (.ci/chaos-class.sh) against its variants graded
alone: every honest student's verdict and points per gate equal to its
variant's; every hostile neighbour built (so it ran) and failing
38.distances with a message, and its other days (the solution's files) graded
as the solution alone. Students are named <NN>_honest_<variant> and
<NN>_hostile_<name> (NN: their place in the class); the alone run's students
are named by variant. Reads each graded folder's names.tsv and results.json.

  chaos-verdicts.py CLASS_GRADED_DIR ALONE_GRADED_DIR [--partial]
      exit 1 on any difference; --partial (a class still being graded): a
      student without results yet is counted, not a difference
"""
import json
import os
import re
import sys

HOSTILE_DAY = ("day38.", "38.")  # the neighbours' hostile file is day 38's
NAME = re.compile(r"^\d+_(honest|hostile)_(.+)$")


def graded(folder):
    """real name -> (staged name, {gate: test} or None) for every student of a graded class folder."""
    out = {}
    for line in open(os.path.join(folder, "names.tsv")):
        staged, name = line.rstrip("\n").split("\t")
        path = os.path.join(folder, staged, "results.json")
        tests = json.load(open(path))["tests"] if os.path.exists(path) else None
        out[name] = (staged, None if tests is None else {t["name"].split(" ", 1)[0]: t for t in tests})
    return out


def status(test):
    """passed, failed, or (a test results.json leaves without one) what it says it was."""
    return test.get("status") or test.get("extra_data", {}).get("result", "not run")


def first_failure(output):
    """The failure's own line, without what shrinking found (its budget is seconds)."""
    return output.split("; smallest failing input found", 1)[0]


def compare(name, gates, want, variant):
    """Differences between a student's gates and its variant's alone; notes."""
    problems, notes = [], []
    for gate in sorted(set(gates) | set(want)):
        got, w = gates.get(gate), want.get(gate)
        if got is None or w is None:
            problems.append(f"{name}: {gate} graded {'alone only' if got is None else 'in the class only'}")
        elif (status(got), got["score"]) != (status(w), w["score"]):
            problems.append(f"{name}: {gate} {status(got)} {got['score']}/{got['max_score']} in the class, "
                            f"{status(w)} {w['score']}/{w['max_score']} as {variant} alone: "
                            f"{first_failure(got.get('output', ''))[:300]}")
        elif status(got) != "passed" and first_failure(got.get("output", "")) != first_failure(w.get("output", "")):
            # A passed gate's message (a speed gate's timings) names no failure to compare.
            notes.append(f"{name}: {gate}: the same verdict, another first failure: "
                         f"{first_failure(got.get('output', ''))[:160]} | alone: {first_failure(w.get('output', ''))[:160]}")
    return problems, notes


def neighbour(name, gates):
    """What a neighbour's day-38 gates must show: it ran, and it failed with a message."""
    problems = []
    built = gates.get("day38.builds")
    if built is None or status(built) != "passed":
        problems.append(f"{name}: day38.builds should pass (a neighbour that does not build never runs), got "
                        f"{built and status(built)}: {(built or {}).get('output', '')[:200]}")
    t = gates.get("38.distances")
    if t is None or status(t) != "failed" or t["score"] != 0 or not t.get("output", "").strip():
        problems.append(f"{name}: 38.distances should fail with a message, got "
                        f"{t and status(t)} {t and t['score']}: {(t or {}).get('output', '')[:200]}")
    return problems


def main(argv):
    partial = "--partial" in argv
    args = [a for a in argv if a != "--partial"]
    if len(args) != 2:
        sys.exit(__doc__)
    students, alone = graded(args[0]), graded(args[1])
    problems, notes, checked, pending, hostile = [], [], 0, 0, 0

    def uncompared(why):  # a student that cannot be compared is one check, failed
        nonlocal checked
        problems.append(why)
        checked += 1

    for name, (staged, gates) in sorted(students.items()):
        match = NAME.match(name)
        name = f"{name} ({staged})"  # the folder with its logs
        if match is None:
            uncompared(f"{name}: not a chaos-class name (<NN>_honest_<variant> or <NN>_hostile_<name>)")
            continue
        kind, what = match.groups()
        hostile += kind == "hostile"
        if gates is None:
            pending += 1
            if not partial:
                uncompared(f"{name}: not graded (no results.json)")
            continue
        variant = "solution" if kind == "hostile" else what
        want = alone.get(variant, (None, None))[1]
        if want is None:
            uncompared(f"{name}: its variant {variant} was not graded alone")
            continue
        if kind == "hostile":
            found = neighbour(name, gates)
            checked += 2
            problems += found
            # Its other days are the solution's files: graded as the solution alone.
            gates = {g: t for g, t in gates.items() if not g.startswith(HOSTILE_DAY)}
            want = {g: t for g, t in want.items() if not g.startswith(HOSTILE_DAY)}
        found, said = compare(name, gates, want, variant)
        checked += len(set(gates) | set(want))
        problems += found
        notes += said
    for n in notes:
        print("note", n)
    for p in problems:
        print("DIFFERENT", p)
    print(f"chaos class: {len(students) - hostile} honest students, {hostile} neighbours"
          f"{f', {pending} not graded yet' if partial else ''}; "
          f"{checked - len(problems)} of {checked} checks as graded alone or as required")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
