#!/usr/bin/env bash
# Grades a class: one folder per student (laid out like exercises/), each
# built and tested in its own build folder, in parallel.
#
#   grade_class.sh SUBMISSIONS_DIR OUT_DIR [-j N] [--seed S] [--days LIST] [--gpus 0,1,...]
#                  [--build-args CMAKE_ARGS...]
#
# Per student, OUT_DIR/<student>/: results.json (Gradescope), junit.xml
# (ctest), report.txt (the gate table and the observation tables),
# build.log, ctest.log, summary.tsv, stamp. For the class: OUT_DIR/summary.csv
# and OUT_DIR/summary.md (student x gate).
#
# -j N         students graded at once (default: cores / 4, at least 1); each
#              build gets cores / N compile jobs.
# --seed S     the seed of the generated (hidden) cases; else $GRADING_SEED;
#              else the seed stored in OUT_DIR/seed by an earlier run; else drawn.
#              Printed, and kept in OUT_DIR/seed, so every result replays.
# --days LIST  grade only these days (e.g. day38,day52): built and reported.
# --gpus LIST  CUDA device ids handed out to students round robin (one
#              CUDA_VISIBLE_DEVICES per student); default: leave it alone.
# --build-args the rest of the arguments go to every student's cmake configure,
#              e.g. -DCMAKE_CUDA_ARCHITECTURES=90 -DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=...
# $GRADE_REPORT  a built grade_report to use; else built once in OUT_DIR/tool-build.
#
# A student whose files, harness commit (and uncommitted harness changes),
# gates.tsv, seed and build arguments are unchanged since their last grading is
# not graded again (OUT_DIR/<student>/stamp).
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
  exit 2
}

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
gates="$repo/harness/gates.tsv"

(($# >= 2)) || usage
submissions="$(cd "$1" && pwd)"
mkdir -p "$2"
out="$(cd "$2" && pwd)"
shift 2

cores="$(nproc 2>/dev/null || echo 4)"
jobs=$((cores / 4 > 1 ? cores / 4 : 1))
seed="${GRADING_SEED:-}"
gpus=()
days=""
build_args=()
while (($#)); do
  case "$1" in
    -j) jobs="$2"; shift 2 ;;
    -j*) jobs="${1#-j}"; shift ;;
    --seed) seed="$2"; shift 2 ;;
    --gpus) IFS=, read -r -a gpus <<<"$2"; shift 2 ;;
    --days) days="$2"; shift 2 ;;
    --build-args) shift; build_args=("$@"); break ;;
    -h|--help) usage ;;
    *) echo "grade_class.sh: unknown argument $1" >&2; usage ;;
  esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "grade_class.sh: -j wants a positive number, got '$jobs'" >&2; exit 2; }
build_jobs=$((cores / jobs > 1 ? cores / jobs : 1))

if [[ -z "$seed" && -s "$out/seed" ]]; then
  seed="$(cat "$out/seed")"
  echo "seed: $seed (from $out/seed; replay with --seed $seed)"
elif [[ -z "$seed" ]]; then
  seed="$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
  echo "seed: $seed (drawn; replay with --seed $seed)"
else
  echo "seed: $seed"
fi
[[ "$seed" =~ ^[0-9]+$ ]] || { echo "grade_class.sh: the seed must be a whole number, got '$seed'" >&2; exit 2; }
echo "$seed" >"$out/seed"

tool="${GRADE_REPORT:-}"
if [[ -z "$tool" ]]; then
  tool="$out/tool-build/grade_report"
  { cmake -S "$repo/harness/grading" -B "$out/tool-build" -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$out/tool-build" --target grade_report; } >"$out/tool-build.log" 2>&1 ||
    { echo "grade_class.sh: building grade_report failed, see $out/tool-build.log" >&2; exit 1; }
fi
[[ -x "$tool" ]] || { echo "grade_class.sh: no grade_report at $tool" >&2; exit 1; }

# What the verdicts depend on besides the student's own files.
harness_id="$(
  {
    git -C "$repo" rev-parse HEAD 2>/dev/null || echo "no git"
    git -C "$repo" diff HEAD -- . ':!exercises' 2>/dev/null | sha256sum
    sha256sum <"$gates"
    echo "seed $seed days $days"
    printf 'arg %s\n' "${build_args[@]+"${build_args[@]}"}"
  } | sha256sum | cut -d' ' -f1
)"

students=()
for dir in "$submissions"/*/; do
  [[ -d "$dir" ]] && students+=("$(basename "$dir")")
done
((${#students[@]})) || { echo "grade_class.sh: no student folders in $submissions" >&2; exit 2; }
count=${#students[@]}
echo "grading $count students, $jobs at a time, $build_jobs compile jobs each"

grade_student() {
  local index="$1" student="$2"
  local src="$submissions/$student" dest="$out/$student" build="$out/builds/$student"
  mkdir -p "$dest"
  local stamp
  stamp="$(
    { echo "$harness_id"; cd "$src" && find . -type f ! -path '*/.*' -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum; } |
      sha256sum | cut -d' ' -f1
  )"
  if [[ -s "$dest/stamp" && "$(cat "$dest/stamp")" == "$stamp" && -s "$dest/results.json" && -s "$dest/summary.tsv" &&
        -s "$dest/report.txt" ]]; then
    echo "[$index/$count] $student: unchanged, $(sed -n 's/^score: //p' "$dest/report.txt")"
    return 0
  fi
  rm -f "$dest"/{stamp,junit.xml,ctest.log,results.json,report.txt,summary.tsv}
  # A runner left by an earlier build would be tested in place of one that no longer compiles.
  rm -rf "$build/runners"

  {
    cmake -S "$repo" -B "$build" -G Ninja -DGRADING_SUBMISSION_DIR="$src" -DGRADING_BUILD_PLANTED=OFF \
      ${days:+"-DGRADING_DAYS=${days//,/;}"} \
      "${build_args[@]+"${build_args[@]}"}" &&
      cmake --build "$build" -- -k 0 -j "$build_jobs"
  } >"$dest/build.log" 2>&1 || true

  if [[ -f "$build/CTestTestfile.cmake" ]]; then
    (
      export GRADING_SEED="$seed"
      if ((${#gpus[@]})); then export CUDA_VISIBLE_DEVICES="${gpus[$(((index - 1) % ${#gpus[@]}))]}"; fi
      ctest --test-dir "$build" -L submission -j "$build_jobs" --output-junit "$dest/junit.xml" \
        --test-output-size-passed 65536 --output-log "$dest/ctest.log" >/dev/null 2>&1
    ) || true
  fi

  local report_args=(--gates "$gates" --prefix submission. --build-log "$dest/build.log" --student "$student"
    ${days:+--days "$days"}
    --results-json "$dest/results.json" --summary-row "$dest/summary.tsv" --show-reports)
  [[ -s "$dest/junit.xml" ]] && report_args+=(--junit "$dest/junit.xml")
  [[ -s "$dest/ctest.log" ]] && report_args+=(--ctest-log "$dest/ctest.log")
  local rc=0
  "$tool" "${report_args[@]}" >"$dest/report.txt" 2>"$dest/report.err" || rc=$?
  if ((rc > 1)); then
    echo "[$index/$count] $student: grade_report failed: $(head -c 300 "$dest/report.err")"
    return 1
  fi
  echo "$stamp" >"$dest/stamp"
  echo "[$index/$count] $student: $(sed -n 's/^score: //p' "$dest/report.txt")"
}

# Up to $jobs students at once; each prints its own progress line when done.
failed=0
running=0
for i in "${!students[@]}"; do
  if ((running >= jobs)); then
    wait -n || failed=1
    running=$((running - 1))
  fi
  grade_student "$((i + 1))" "${students[$i]}" &
  running=$((running + 1))
done
while ((running > 0)); do
  wait -n || failed=1
  running=$((running - 1))
done

rows=()
for student in "${students[@]}"; do
  [[ -s "$out/$student/summary.tsv" ]] && rows+=("$out/$student/summary.tsv")
done
if ((${#rows[@]})); then
  "$tool" summarize --csv "$out/summary.csv" --markdown "$out/summary.md" "${rows[@]}" >/dev/null
  echo "class table: $out/summary.csv, $out/summary.md"
fi
exit "$failed"
