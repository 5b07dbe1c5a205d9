#!/usr/bin/env bash
# A class whose folder names are shell and CMake syntax, graded for real
# (grade_class.sh with cmake, nvcc and ctest, a scaffolded day to keep it
# small): nothing in a name runs, every student is graded under a staged
# name, the one that does not compile fails its build gate, and the table
# shows the names as they are.
source "$(dirname "$0")/common.sh"
repo="$work/odd-names-repo"
zdemo_repo "$repo"

# The issue's own attempt (as root, ${HOME%%r*} is "/", so it names /tmp/pwned),
# then every kind of syntax a shell or CMake might read.
names=('$(touch ${HOME%%r*}tmp${HOME%%r*}pwned)' '$(touch PWNED)' '`touch PWNED2`' 'a"quote'"'" '${HOME}'
  $'new\nline' '-leading-dash' 'with space' 'semi;colon|pipe' 'back\slash' 'paren)(' '#hash')
subs="$work/odd-class"
rm -rf "$subs" /tmp/pwned
for name in "${names[@]}"; do
  mkdir -p "$subs/$name/zdemo"
  cp "$repo/reference/zdemo/solution/zdemo.cu" "$subs/$name/zdemo/zdemo.cu"
done
echo "not C++" >>"$subs/with space/zdemo/zdemo.cu"
mapfile -t args < <(configure_args)

out="$subs/graded"  # inside the submissions folder: it must not be graded as a student
(cd "$work" && bash "$repo/harness/grading/grade_class.sh" "$subs" "$out" -j 2 --seed 5 --build-args "${args[@]}") \
  >"$work/odd-names.log" 2>&1 || { tail -30 "$work/odd-names.log"; fail "grade_class.sh failed on the odd names"; }

[[ ! -e /tmp/pwned ]] || fail "a folder name ran as a command: /tmp/pwned exists"
found=$(find "$work" "$subs" -name PWNED -o -name PWNED2 | head -3)
[[ -z "$found" ]] || fail "a folder name ran as a command: $found"

python3 - "$out/summary.csv" "${names[@]}" <<'PY' || fail "the class table does not show every name graded"
import csv, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
# The table shows each name on one line: backslash, tab, CR and newline escaped.
escape = lambda n: n.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n")
want = [escape(n) for n in sys.argv[2:]]
assert sorted(rows) == sorted(want), f"students in the table: {sorted(rows)}, want {sorted(want)}"
for name in want:
    builds = rows[name]["zdemo.builds"]
    expected = "FAIL" if name == "with space" else "ok"
    assert builds == expected, f"{name!r}: zdemo.builds is {builds!r}, want {expected!r}"
print(f"{len(want)} odd names graded; the one that does not compile fails its build gate")
PY
