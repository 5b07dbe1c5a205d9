#!/usr/bin/env python3
"""Checks the demonstration class's verdicts (lab/scripts/class-demo.sh) against what
each student must get, read from the graded results.json files:

  reference        every gate passes, full marks
  stub             no points
  compile_error    day38.builds fails with the compiler's message, every day 38 gate
                   earns nothing, the other days full marks
  missing_file     day52.builds fails naming the missing file, likewise
  <hostile name>   tests/day38/hostile/<name>.cu's header: the gate on its "fails:" line
                   fails with a message matching its "expect:" line (or, for "fails: none",
                   full marks), day38.builds passes and the other days keep full marks;
                   one caught only under a sanitizer ("sanitizer:") is a difference: a class
                   is graded without one

  class-demo-verdicts.py GRADED_DIR HOSTILE_DIR      exit 1 on any difference
"""
import json
import os
import re
import sys

graded, hostile_dir = sys.argv[1], sys.argv[2]
problems = []
checked = 0


def gates(student_id):
    results = json.load(open(os.path.join(graded, student_id, "results.json")))
    return {t["name"].split(" ", 1)[0]: t for t in results["tests"]}, results


def day_of(gate):
    return gate.split(".", 1)[0].removeprefix("day")


def expect(name, ok, what):
    global checked
    checked += 1
    if not ok:
        problems.append(f"{name}: {what}")


def other_days_full(name, by_gate, day):
    for gate, t in by_gate.items():
        if day_of(gate) != day:
            expect(name, t["status"] == "passed" and t["score"] == t["max_score"],
                   f"{gate} should pass with full marks (day {day} is the one changed), got {t['status']} {t['score']}/{t['max_score']}")


def header(path):
    """A hostile file's header, read as the driver's readExpectation
    (harness/gtest/src/driver.cpp) reads it: the same key pattern, the code's
    first line ends it, a key given twice keeps its last value."""
    fields = {}
    for line in open(path):
        text = line.rstrip("\n")
        m = re.match(r"^(?://\s*)?([a-z_]+):\s*(.*?)\s*$", text)
        if m:
            fields[m.group(1)] = m.group(2)
        elif not (text.startswith("//") or text == ""):
            break
    return fields


for line in open(os.path.join(graded, "names.tsv")):
    student_id, name = line.rstrip("\n").split("\t")
    if not os.path.exists(os.path.join(graded, student_id, "results.json")):
        expect(name, False, "no results.json: not graded")
        continue
    by_gate, results = gates(student_id)
    if name == "reference":
        expect(name, results["score"] == results["max_score"], f"full marks, got {results['score']}/{results['max_score']}")
        for gate, t in by_gate.items():
            expect(name, t["status"] == "passed", f"{gate} should pass: {t['output'][:200]}")
    elif name == "stub":
        expect(name, results["score"] == 0, f"no points, got {results['score']}")
    elif name in ("compile_error", "missing_file"):
        day, pattern = ("38", r"error") if name == "compile_error" else ("52", r"diamond\.cu")
        builds = by_gate[f"day{day}.builds"]
        expect(name, builds["status"] == "failed" and re.search(pattern, builds["output"]),
               f"day{day}.builds should fail naming /{pattern}/: {builds['status']} {builds['output'][:200]}")
        for gate, t in by_gate.items():
            if day_of(gate) == day:
                expect(name, t["score"] == 0, f"{gate} should earn nothing, got {t['score']}")
        other_days_full(name, by_gate, day)
    else:
        fields = header(os.path.join(hostile_dir, f"{name}.cu"))
        if "sanitizer" in fields:
            expect(name, False, f"its trick is caught only under {fields['sanitizer']}, which a class is not "
                                "graded under: it does not belong in the demonstration class")
            continue
        expect(name, by_gate["day38.builds"]["status"] == "passed",
               f"day38.builds should pass: {by_gate['day38.builds']['output'][:300]}")
        if fields["fails"] == "none":
            expect(name, results["score"] == results["max_score"],
                   f"the sandbox contains it, so full marks; got {results['score']}/{results['max_score']}: "
                   + "; ".join(f"{g}: {t['output'][:160]}" for g, t in by_gate.items() if t["status"] != "passed"))
        else:
            t = by_gate[fields["fails"]]
            expect(name, t["status"] == "failed" and t["score"] == 0, f"{fields['fails']} should fail, got {t['status']}")
            if "expect" in fields:
                expect(name, re.search(fields["expect"], t["output"]),
                       f"{fields['fails']}'s message should match /{fields['expect']}/: {t['output'][:300]}")
        other_days_full(name, by_gate, "38")

for p in problems:
    print("UNEXPECTED", p)
print(f"demonstration class verdicts: {checked - len(problems)} of {checked} checks as expected")
sys.exit(1 if problems else 0)
