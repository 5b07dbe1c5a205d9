#!/usr/bin/env bash
# A class grades each student's day in one test process (grade_class.sh),
# "<s>.<day>", so its runner starts once a day, not once a gate: the gates
# that share the GPU, then those that hold it exclusively, and the day's
# report. Checked on each day's registration of two stand-in students, as a
# class build writes it:
#  - the names and labels, read back by ctest itself;
#  - every student gate's cases in it (gates.tsv's class_test, which the
#    report reads);
#  - with the instructor's runner in the manifest, as a class build has it,
#    each day with a speed gate (timed, scored) or a course baseline a class
#    times once (52.overlap's serial version) has instructor.<day>, serial and
#    labelled instructor, whose process lists those gates' cases alone (it
#    times the baselines once for the class);
#  - the starts: the tests run over the stand-in runner (fake_runner) as
#    each student's, which answers every call with a record no day can
#    read, so every case runs, shared and exclusive, and fails; the call
#    trace counts the probes (one a runner start), the case trace the
#    starts within cases (none), and the slot trace the timed turns each
#    day test took (GRADING_TIMED_TURNS=1).
#   class_tests.sh BUILD_DIR FAKE_RUNNER
set -uo pipefail
build=$1 fake=$2
work=$(mktemp -d) turns=$(mktemp -d)  # the turns' lock files apart from the days' folders
instructor=$(mktemp -d)                # the days' registrations with the instructor's runner
trap 'rm -rf "$work" "$turns" "$instructor"' EXIT
fail=0
days=0
: >"$work/trace.tsv"
: >"$work/cases.tsv"
: >"$work/slots.tsv"
for driver in "$build"/harness/*/*_tests; do
  day=$(basename "$driver" _tests)
  [[ -x "$driver" && "$day" != *_host && -x "$build/runners/${day}_runner_reference" ]] || continue
  mkdir -p "$work/$day"
  for s in s0007 s0008; do
    cp "$fake" "$work/${day}_runner_$s"
    printf 'student\t%s\t%s\n' "$s" "$work/${day}_runner_$s" >>"$work/$day/manifest.tsv"
  done
  "$driver" --emit-ctest "$work/$day/CTestTestfile.cmake" --manifest "$work/$day/manifest.tsv" ||
    { echo "$day: --emit-ctest failed"; exit 1; }
  "$driver" --gates-tsv >"$work/$day/gates.tsv" || { echo "$day: --gates-tsv failed"; exit 1; }
  ctest --test-dir "$work/$day" --show-only=json-v1 >"$work/$day.json" || { echo "$day: ctest cannot read it"; exit 1; }
  mkdir -p "$instructor/$day"
  { printf 'instructor\t%s\n' "$build/runners/${day}_runner_reference"; cat "$work/$day/manifest.tsv"; } \
    >"$instructor/$day/manifest.tsv"
  "$driver" --emit-ctest "$instructor/$day/CTestTestfile.cmake" --manifest "$instructor/$day/manifest.tsv" &&
    ctest --test-dir "$instructor/$day" --show-only=json-v1 >"$instructor/$day.json" &&
    "$driver" --suite instructor --runner "$build/runners/${day}_runner_reference" --gtest_list_tests \
      >"$instructor/$day.listed" || { echo "$day: the class registration with the instructor's runner failed"; exit 1; }
  # The stand-in touches no GPU and needs no sandbox to be contained.
  TMPDIR="$turns" CUDA_VISIBLE_DEVICES="" GRADING_SANDBOX=off GRADING_GPU_SLOTS=0 GRADING_TIMED_TURNS=1 \
    GRADING_SHRINK=off GRADING_CALL_TRACE="$work/trace.tsv" GRADING_TRACE="$work/cases.tsv" \
    GRADING_SLOT_TRACE="$work/slots.tsv" ctest --test-dir "$work/$day" -j 4 >"$work/$day/ctest.log" 2>&1
  days=$((days + 1))
done
((days > 0)) || { echo "no day's driver and instructor runner under $build"; exit 1; }
python3 - "$work" "$days" "$instructor" <<'PY' || fail=1
import collections, csv, json, os, sys
work, days, instructor = sys.argv[1], int(sys.argv[2]), sys.argv[3]
failures = 0
def bad(message):
    global failures
    failures += 1
    print(message)
starts, calls = collections.Counter(), collections.Counter()
timed_once = []  # the days whose baselines a class times once
COURSE_BASELINES = {"52.overlap"}  # gates that time the course's code, not the instructor's, once a class
for line in open(os.path.join(work, "trace.tsv")):
    f = line.rstrip("\n").split("\t")
    calls[os.path.basename(f[6])] += 1
    if f[0] == "probe":
        starts[os.path.basename(f[6])] += 1
restarts = sum(int(line.split("\t")[7]) for line in open(os.path.join(work, "cases.tsv")))
if restarts:
    bad(f"cases started a runner again {restarts} times")
turned = {line.split("\t")[5] for line in open(os.path.join(work, "slots.tsv")) if line.split("\t")[1] == "turn"}
summary = []
for day in sorted(d for d in os.listdir(work) if os.path.isdir(os.path.join(work, d))):
    tests = json.load(open(os.path.join(work, day + ".json")))["tests"]
    labels = {t["name"]: next((p["value"] for p in t.get("properties", []) if p["name"] == "LABELS"), [])
              for t in tests}
    rows = list(csv.DictReader((l for l in open(os.path.join(work, day, "gates.tsv")) if not l.startswith("#")),
                               delimiter="\t"))
    held = {t for r in rows if r["grades"] == "student" for t in r["class_test"].split(",")}
    for s in ("s0007", "s0008"):
        mine = sorted(n for n in labels if n.startswith(s + "."))
        for name in mine:
            if name != s + "." + day:
                bad(f"{name}: the class test of {day} is {s}.{day}")
            elif "exclusive" not in labels[name]:
                bad(f"{name} times the GPU but is not labelled exclusive")
        for test in held:
            if s + "." + test not in mine:
                bad(f"gates.tsv puts a {day} gate in {test}, which {s} has no test of")
        runs = starts[f"{day}_runner_{s}"]
        if runs != 1 or len(mine) != 1:
            bad(f"{s}'s {day} runner started {runs} times for its {len(mine)} tests (want one test, one start)")
        if calls[f"{day}_runner_{s}"] <= runs:
            bad(f"{s}'s {day} runner was asked nothing but its probe: its cases never ran")
        summary.append(f"{day} {runs}")
    for r in rows:
        if r["grades"] == "student" and r["class_test"] != day:
            bad(f"{r['id']}: class_test {r['class_test']}, want {day}")
    # The baselines a class times once: a test where the day has a speed
    # gate or a course baseline, listing those gates' cases alone.
    once = sorted(r["id"] for r in rows if r["grades"] == "student" and
                  ((r["timed"] == "yes" and r["scored"] == "yes") or r["id"] in COURSE_BASELINES))
    registered = {t["name"]: {p["name"]: p["value"] for p in t.get("properties", [])}
                  for t in json.load(open(os.path.join(instructor, day + ".json")))["tests"]}
    mine = registered.get("instructor." + day)
    if once and mine is None:
        bad(f"{day} times {once} against a baseline but has no instructor.{day}")
    elif not once and mine is not None:
        bad(f"instructor.{day} is registered, but {day} has no baseline a class times once")
    elif mine is not None:
        if not mine.get("RUN_SERIAL") or "instructor" not in mine.get("LABELS", []):
            bad(f"instructor.{day} is not serial and labelled instructor: {mine}")
        listed = sorted(l.rstrip(".\n") for l in open(os.path.join(instructor, day + ".listed")) if not l.startswith(" "))
        if listed != once:
            bad(f"instructor.{day} lists the gates {listed}, want {once}")
        timed_once.append(day)
if len(turned) != 2 * days:
    bad(f"{len(turned)} processes took a timed turn, want each of the {2 * days} day tests")
if failures:
    sys.exit(1)
print("runner starts per student and day (two stand-in students each):", ", ".join(sorted(set(summary))),
      f"; {sum(calls.values())} calls, {len(turned)} day tests took timed turns; baselines timed once a class on",
      ", ".join(timed_once) or "no day")
PY
exit $fail
