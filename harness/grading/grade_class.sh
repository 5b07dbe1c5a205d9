#!/usr/bin/env bash
# Grades a class in one build: every student's files staged under a
# generated name (s0001, s0002, ...), compiled as that student's runners in
# one configure and one build tree (the harness first, then the students',
# built as the students before them are tested), each student's tests run
# (students in parallel, a test a day, the GPU shared through its slots and
# its timing done in turns) and reported;
# failures are shrunk once every verdict is out, and their reports written again.
#
#   grade_class.sh SUBMISSIONS_DIR OUT_DIR [options]       grade (a shard of) the class
#   grade_class.sh merge OUT_DIR SHARD_OUT_DIR...            merge shards into the class results
#   grade_class.sh slurm SUBMISSIONS_DIR OUT_DIR --shards N [--gres G] [--partition P] [--time T]
#                  [--print] [grading options]               submit the class as a Slurm job array
#
# Grading options:
#   -j N           students tested at once (default: cores / 4, at least 1), each day of a student in
#                  one test: its cases that share the GPU, then those that hold it exclusively (the
#                  timed gates, and calls too latency-bound to share it) and the day's reports
#   --timed-turns N day tests of the class in their exclusive part at once, per GPU (default 8): their
#                  host work overlaps the GPU's, but more of it slows the calls that hold the GPU
#   --seed S       the seed of the generated (hidden) cases; else $GRADING_SEED; else the one kept in
#                  OUT_DIR/seed by an earlier run; else drawn. Printed and kept, so every result replays.
#   --days LIST    grade only these days (comma-separated names)
#   --no-reports   skip each student's day reports (their figures and charts; they carry no points): the
#                  same verdicts and points, sooner (a re-grade after fixing a case); report.html then
#                  has no day charts
#   --gpus LIST    CUDA device ids handed to students round robin (one CUDA_VISIBLE_DEVICES each)
#   --shard I/N    grade only the students whose index (0-based, in name order) is I modulo N
#   --build-args   the rest of the arguments go to the one cmake configure
#                  (e.g. -DCMAKE_CUDA_ARCHITECTURES=90 -DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=...)
#
# Per student, OUT_DIR/<sNNNN>/: results.json (Gradescope), junit.xml, report.txt, report.html,
# summary.tsv, stamp, name (the folder's real name). For the class: OUT_DIR/names.tsv (staged name,
# real name), OUT_DIR/summary.csv and OUT_DIR/summary.md (student x gate, real names),
# OUT_DIR/dashboard.html, OUT_DIR/progress.log, OUT_DIR/done (written last, when every student was graded),
# OUT_DIR/answers (the expected outputs no student changes, computed once a run, and the
# instructor's speed rounds, timed once a run: OUT_DIR/instructor.log),
# OUT_DIR/compile-cache (a student's compile, reused for every other student whose folder holds the same files),
# OUT_DIR/verdicts-out (when every student's tests had run, before any shrinking, epoch microseconds:
# lab/scripts/runner-starts.sh --before, the starts of grading alone),
#
# A folder's name is only ever data: it is never part of a path the build or a shell sees, and it
# reaches the reports escaped. Hidden folders, links and the output folder itself are not students.
# A student whose files, harness, seed and build arguments are unchanged since the last run is not
# tested again.
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
  exit 2
}
die() { echo "grade_class.sh: $*" >&2; exit 2; }

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
script="$repo/harness/grading/grade_class.sh"
cores="$(nproc 2>/dev/null || echo 4)"

# ---------------------------------------------------------------- merge
merge() {
  (($# >= 2)) || usage
  mkdir -p "$1"
  local out shard rows=() missing=0 count built=""
  out="$(cd "$1" && pwd)"
  shift
  count=$#
  : >"$out/names.tsv"
  for shard in "$@"; do
    if [[ ! -f "$shard/done" ]]; then
      echo "shard $shard: did not finish (no $shard/done); its students are not in the class table" >&2
      missing=$((missing + 1))
      continue
    fi
    cat "$shard/names.tsv" >>"$out/names.tsv"
    [[ -x "$shard/build/harness/grading/grade_report" ]] && built="$shard/build"  # its grade_report serves the merge
    local dir
    for dir in "$shard"/s[0-9]*/; do
      [[ -s "$dir/summary.tsv" ]] || continue
      local id
      id="$(basename "$dir")"
      mkdir -p "$out/$id"
      cp "$dir"/{results.json,summary.tsv,report.txt,report.html,name} "$out/$id/" 2>/dev/null || true
      rows+=("$out/$id/summary.tsv")
    done
  done
  sort -u -o "$out/names.tsv" "$out/names.tsv"
  local tool
  tool="$(report_tool "$out" "${built:-}")"
  if ((${#rows[@]})); then
    "$tool" summarize --csv "$out/summary.csv" --markdown "$out/summary.md" "${rows[@]}" >/dev/null
    pictures "$tool" class "$out"
  fi
  echo "merged $((count - missing)) of $count shards, ${#rows[@]} students: $out/summary.csv, $out/summary.md"
  if ((missing)); then
    echo "$missing shard(s) failed: the class table is incomplete" >&2
    exit 1
  fi
  touch "$out/done"
}

# grade_report: $GRADE_REPORT, else the one a class build ($2) made, else one
# of this repository's built once under $1.
report_tool() {
  local tool="${GRADE_REPORT:-${2:+$2/harness/grading/grade_report}}"
  [[ -n "$tool" && -x "$tool" ]] && { echo "$tool"; return; }
  tool="$1/tool-build/grade_report"
  if [[ ! -x "$tool" ]]; then
    { cmake -S "$repo/harness/grading" -B "$1/tool-build" -DCMAKE_BUILD_TYPE=Release &&
      cmake --build "$1/tool-build" --target grade_report grade_html; } >"$1/tool-build.log" 2>&1 ||
      { echo "grade_class.sh: building grade_report failed, see $1/tool-build.log" >&2; exit 1; }
  fi
  echo "$tool"
}

# The pictures (grading.md, "Pictures"): grade_html, built beside grade_report ($1), draws a
# page (the rest are its arguments). Never a reason to fail: the text results stand alone.
pictures() {
  local html
  html="$(dirname "$1")/grade_html"
  shift
  if [[ -x "$html" ]]; then "$html" "$@" >/dev/null || true; fi
}

# ---------------------------------------------------------------- slurm
slurm() {
  (($# >= 2)) || usage
  local subs="$1" out="$2" shards="" gres="" partition="" time="" print=0 seed_arg="" rest=()
  shift 2
  while (($#)); do
    case "$1" in
      --shards) shards="$2"; shift 2 ;;
      --seed) seed_arg="$2"; shift 2 ;;
      --gres) gres="$2"; shift 2 ;;
      --partition) partition="$2"; shift 2 ;;
      --time) time="$2"; shift 2 ;;
      --print) print=1; shift ;;
      --build-args) rest+=("$@"); break ;;
      *) rest+=("$1"); shift ;;
    esac
  done
  [[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards wants a positive number, got '$shards'"
  mkdir -p "$out/slurm"
  subs="$(cd "$subs" && pwd)"
  out="$(cd "$out" && pwd)"
  local seed
  seed="$(choose_seed "$out" "$seed_arg")"
  local quoted
  quoted="$(printf '%q ' "${rest[@]+"${rest[@]}"}")"
  {
    echo "#!/usr/bin/env bash"
    echo "#SBATCH --job-name=grade-class"
    echo "#SBATCH --array=0-$((shards - 1))"
    echo "#SBATCH --output=$out/slurm/shard-%a.log"
    [[ -n "$gres" ]] && echo "#SBATCH --gres=$gres"
    [[ -n "$partition" ]] && echo "#SBATCH --partition=$partition"
    [[ -n "$time" ]] && echo "#SBATCH --time=$time"
    echo "# One shard of the class per array task; the seed is the class's, so every shard grades alike."
    echo "exec $(printf '%q' "$script") $(printf '%q' "$subs") $(printf '%q' "$out/shards")/\$SLURM_ARRAY_TASK_ID \\"
    echo "  --shard \$SLURM_ARRAY_TASK_ID/$shards --seed $seed $quoted"
  } >"$out/slurm/shards.sbatch"
  {
    echo "#!/usr/bin/env bash"
    echo "#SBATCH --job-name=grade-class-merge"
    echo "#SBATCH --output=$out/slurm/merge.log"
    echo "# Runs after every shard, whether it succeeded or not: a failed shard is reported, not dropped."
    printf 'exec %q merge %q' "$script" "$out"
    local i
    for ((i = 0; i < shards; i++)); do printf ' %q' "$out/shards/$i"; done
    echo
  } >"$out/slurm/merge.sbatch"
  echo "seed: $seed"
  echo "sbatch scripts: $out/slurm/shards.sbatch, $out/slurm/merge.sbatch"
  if ((print)); then
    cat "$out/slurm/shards.sbatch" "$out/slurm/merge.sbatch"
    return 0
  fi
  local array merge_job
  array="$(sbatch --parsable "$out/slurm/shards.sbatch")"
  merge_job="$(sbatch --parsable --dependency=afterany:"${array%%;*}" "$out/slurm/merge.sbatch")"
  echo "submitted: shards job ${array%%;*} (array 0-$((shards - 1))), merge job ${merge_job%%;*} after it"
  echo "results: $out/summary.csv once job ${merge_job%%;*} has run"
}

choose_seed() {  # OUT_DIR, --seed value: the class's seed, printed to stdout and kept
  local out="$1" seed="${2:-${GRADING_SEED:-}}"
  if [[ -z "$seed" && -s "$out/seed" ]]; then
    seed="$(cat "$out/seed")"
  elif [[ -z "$seed" ]]; then
    seed="$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
  fi
  [[ "$seed" =~ ^[0-9]{1,19}$ ]] || die "the seed must be a decimal number, got '$seed'"
  echo "$seed" >"$out/seed"
  echo "$seed"
}

# ---------------------------------------------------------------- grade
escape() {  # a name as one line: backslash, tab, newline and other controls escaped
  printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/\t/\\t/g' -e 's/\r/\\r/g' | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 }' |
    LC_ALL=C tr -d '\000-\010\013\014\016-\037\177'
}

ran_tests() {  # a student's output folder: did their ctest run its tests?
  grep -q "</testsuite>" "$1/junit.xml" 2>/dev/null
}

# grade() in four parts: stage the class, build the harness, test every
# student (each one's runners built beside the tests), report the class.
# The parts share the run's settings and state as globals: grade_options
# sets the settings, each part what the later ones read.
grade() {
  grade_options "$@"
  echo "seed: $seed"
  rm -f "$out/done"
  stage
  build_harness
  test_class
  report_class
}

grade_options() {  # SUBMISSIONS_DIR OUT_DIR [options], checked; the seed chosen and kept
  (($# >= 2)) || usage
  [[ -d "$1" ]] || die "no submissions folder at $1"
  submissions="$(cd "$1" && pwd -P)"
  mkdir -p "$2"
  out="$(cd "$2" && pwd -P)"
  shift 2
  jobs=$((cores / 4 > 1 ? cores / 4 : 1)) timed_turns=8 seed_arg="" days="" reports=yes shard="0/1" gpus=() build_args=()
  while (($#)); do
    case "$1" in
      -j) jobs="$2"; shift 2 ;;
      -j*) jobs="${1#-j}"; shift ;;
      --timed-turns) timed_turns="$2"; shift 2 ;;
      --timed-jobs) die "--timed-jobs is gone: a student's day is one test now; --timed-turns N bounds the day tests timing at once" ;;
      --seed) seed_arg="$2"; shift 2 ;;
      --gpus) IFS=, read -r -a gpus <<<"$2"; shift 2 ;;
      --days) days="$2"; shift 2 ;;
      --no-reports) reports=no; shift ;;
      --shard) shard="$2"; shift 2 ;;
      --build-args) shift; build_args=("$@"); break ;;
      -h|--help) usage ;;
      *) die "unknown argument $1" ;;
    esac
  done
  [[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "-j wants a positive number, got '$jobs'"
  [[ "$timed_turns" =~ ^[1-9][0-9]*$ ]] || die "--timed-turns wants a positive number, got '$timed_turns'"
  [[ "$shard" =~ ^([0-9]+)/([1-9][0-9]*)$ ]] || die "--shard wants I/N, got '$shard'"
  shard_i="${BASH_REMATCH[1]}" shard_n="${BASH_REMATCH[2]}"
  ((shard_i < shard_n)) || die "--shard $shard: I must be below N"
  [[ -z "$days" || "$days" =~ ^[a-z0-9_]+(,[a-z0-9_]+)*$ ]] || die "--days wants day names separated by commas, got '$days'"
  build_jobs=$((cores / jobs > 1 ? cores / jobs : 1))
  seed="$(choose_seed "$out" "$seed_arg")"
}

# ---------------------------------------------------------------- grade: stage
# The class under OUT/class: students in name order, the output folder,
# hidden folders and links left out; only regular files with plain names
# copied. OUT/names.tsv pairs each staged name with the real one. A file
# staged by the last run with the same bytes keeps that run's time stamp,
# so the build tree compiles only the files that changed.
stage() {
  class="$out/class" names="$out/names.tsv" staged=0
  local last="$out/class.last"
  rm -rf "$last"
  [[ -d "$class" ]] && mv "$class" "$last"
  mkdir -p "$class"
  : >"$names"
  local index=0 dir name id
  while IFS= read -r -d '' dir; do
    name="${dir#"$submissions"/}"
    [[ "$name" == .* ]] && continue
    [[ -L "$dir" ]] && { echo "skipping $(escape "$name"): a link, not a folder"; continue; }
    [[ "$(cd "$dir" && pwd -P)" == "$out" || "$out" == "$(cd "$dir" && pwd -P)"/* ]] && continue
    index=$((index + 1))
    (((index - 1) % shard_n == shard_i)) || continue
    id="$(printf 's%04d' "$index")"
    mkdir -p "$class/$id" "$out/$id"
    (cd "$dir" && find . -type f -print0) | while IFS= read -r -d '' file; do
      file="${file#./}"
      if [[ "$file" =~ ^[A-Za-z0-9_][A-Za-z0-9._/-]*$ && "$file" != *..* ]]; then
        mkdir -p "$class/$id/$(dirname "$file")"
        cp -- "$dir/$file" "$class/$id/$file"
      fi
    done
    printf '%s\n' "$(escape "$name")" >"$out/$id/name"
    printf '%s\t%s\n' "$id" "$(escape "$name")" >>"$names"
    staged=$((staged + 1))
  done < <(find "$submissions" -mindepth 1 -maxdepth 1 -print0 | LC_ALL=C sort -z)
  if [[ -d "$last" ]]; then
    (cd "$class" && find . -type f -print0) | while IFS= read -r -d '' file; do
      if [[ -f "$last/$file" ]] && cmp -s "$last/$file" "$class/$file"; then touch -r "$last/$file" "$class/$file"; fi
    done
    rm -rf "$last"
  fi
  ((staged)) || die "no student folders in $submissions${shard_n:+ for shard $shard}"
}

# ---------------------------------------------------------------- grade: build
# One configure and one build tree for the whole class: first what every
# student's tests need (class_harness), then each student's runners
# (class_<id>, build_students), built while the students before them are
# tested. A student whose file does not compile fails that student's
# targets only (-k 0); build.log holds all of it, and each failed step of a
# student's leaves a record in build/build-records/<id>/ for their report.
build_harness() {
  build="$out/build"
  local began_at configured_at
  began_at=$(date +%s)
  echo "building the runners of $staged students (one configure, the harness first, then each student's beside the tests; $cores cores)"
  cmake -S "$repo" -B "$build" -G Ninja -DGRADING_CLASS_DIR="$class" -DGRADING_BUILD_PLANTED=OFF \
    -DGRADING_COMPILE_CACHE="$out/compile-cache" \
    ${days:+"-DGRADING_DAYS=${days//,/;}"} "${build_args[@]+"${build_args[@]}"}" >"$out/build.log" 2>&1 &&
    configured_at=$(date +%s) &&
    cmake --build "$build" --target class_harness -- -k 0 >>"$out/build.log" 2>&1 || true
  local built_at
  built_at=$(date +%s)
  configured_at=${configured_at:-$built_at}
  echo "harness built in $((built_at - began_at)) s: configure $((configured_at - began_at)) s, build" \
    "$((built_at - configured_at)) s (log: $out/build.log)"
  tool="$(report_tool "$out" "$build")"
}

# The students to grade have their runners built in the background, a few
# at a time in the order they are tested, while those built are tested:
# the compiler keeps the cores, the tests mostly wait for the GPU. Niced,
# so a runner whose GPU work ended wakes before a compiler. Each student's
# marker in OUT/.built says their build ended (built or not).
start_student_builds() {  # the students in to_build
  built="$out/.built"
  rm -rf "$built" && mkdir -p "$built"
  build_students &
  builder=$!
  trap 'kill "$builder" 2>/dev/null || true' EXIT
}
build_students() {  # cores / 4 students a ninja run: four days' runners each
  local per=$((cores / 4 > 1 ? cores / 4 : 1)) i group began_at
  began_at=$(date +%s)
  for ((i = 0; i < ${#to_build[@]}; i += per)); do
    group=("${to_build[@]:i:per}")
    nice -n 10 cmake --build "$build" --target "${group[@]/#/class_}" -- -k 0 >>"$out/build.log" 2>&1 || true
    for id in "${group[@]}"; do : >"$built/$id"; done
  done
  echo "${#to_build[@]} students' runners built in $(($(date +%s) - began_at)) s, beside their tests" >"$built/took"
}
wait_for_build() {  # staged id: until its runners' build ended (or the builder did)
  while [[ ! -e "$built/$1" ]] && kill -0 "$builder" 2>/dev/null; do sleep 0.2; done
}

# ---------------------------------------------------------------- grade: test
# What every verdict depends on besides the student's own files.
harness_identity() {
  {
    git -C "$repo" rev-parse HEAD 2>/dev/null || echo "no git"
    git -C "$repo" diff HEAD -- . ':!exercises' 2>/dev/null | sha256sum
    echo "seed $seed days $days reports $reports"
    printf 'arg %s\n' "${build_args[@]+"${build_args[@]}"}"
  } | sha256sum | cut -d' ' -f1
}
stamp_of() {  # what a student's verdict depends on: the harness and their files
  { echo "$harness_id"; cd "$class/$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum; } |
    sha256sum | cut -d' ' -f1
}
unchanged() {  # staged id: graded before with the same stamp
  [[ -s "$out/$1/stamp" && "$(cat "$out/$1/stamp")" == "${stamps[$1]}" && -s "$out/$1/results.json" &&
    -s "$out/$1/summary.tsv" ]]
}

# One pass over the class, a lane a student. A call that holds the GPU
# exclusively (a timed one, a search too deep to share it) first waits for
# every call on the GPU to end while new ones wait behind it; a few day
# tests at a time take their exclusive part (GRADING_TIMED_TURNS), so such
# calls follow one another while the other tests' shared calls fill the
# GPU between them.
test_class() {
  harness_id="$(harness_identity)"
  # What no student changes (a host reference over a large input), computed once
  # for this run's students (harness/core/include/harness/answer_cache.h);
  # never kept from an earlier run, whose harness may have computed it otherwise.
  export GRADING_ANSWER_CACHE="$out/answers" GRADING_TIMED_TURNS="$timed_turns"
  rm -rf "$GRADING_ANSWER_CACHE" && mkdir -p "$GRADING_ANSWER_CACHE"

  ids=()
  mapfile -t ids < <(cut -f1 "$names")
  count=${#ids[@]} done_count=0 failed=0 graded_seconds=0 pending=()
  declare -gA began=()  # when each student's grading started
  : >"$out/progress.log"
  start=$(date +%s)
  declare -gA stamps=()  # each student's, once: neither their files nor the harness change during a run
  local id
  for id in "${ids[@]}"; do stamps[$id]="$(stamp_of "$id")"; done
  to_build=()  # the students graded this run: their runners are built, their tests run
  for id in "${ids[@]}"; do unchanged "$id" || to_build+=("$id"); done
  ((${#to_build[@]} == 0)) || time_instructor
  start_student_builds

  in_lanes "$jobs" graded_pass .graded reap
  wait "$builder" || true
  trap - EXIT
  cat "$built/took" 2>/dev/null || true
  rm -rf "$built"
  date +%s%6N >"$out/verdicts-out"
  echo "every student's tests ran in $(($(date +%s) - start)) s" | tee -a "$out/progress.log"
  shrink_class
}

# The speed gates' instructor rounds, timed once for the class on each GPU
# its students get, before any student's runner is built or started, and
# kept in the answer folder: each student's speed gate then times only the
# student against them (harness/gtest/include/harness/day.h,
# InstructorTiming). Where none were kept (no GPU, a failure), each student
# times both in turn, as the suite does.
time_instructor() {
  local g log began_at
  began_at=$(date +%s)
  for g in "${gpus[@]:-}"; do
    log="$out/instructor${g:+-gpu$g}"
    (
      export GRADING_SEED="$seed"
      [[ -z "$g" ]] || export CUDA_VISIBLE_DEVICES="$g"
      ctest --test-dir "$build" -L '^instructor$' --output-log "$log.log" >"$log.console" 2>&1
    ) || echo "timing the instructor once failed (see $log.log): its students time both in turn"
  done
  echo "the instructor's speed rounds timed once for the class in $(($(date +%s) - began_at)) s" |
    tee -a "$out/progress.log"
}

# Once every verdict is out: each student's failed tests run again with
# shrinking on (the first run is GRADING_SHRINK=off, so no verdict waits
# for another student's shrinking), and their reports are written again
# with the smallest failing inputs (grade_report --shrunk; no verdict
# changes). The students graded this run with a failed test hold a
# .shrink marker.
shrink_class() {
  local ids=() id began_at
  for id in $(cut -f1 "$names"); do [[ -f "$out/$id/.shrink" ]] && ids+=("$id"); done
  ((${#ids[@]})) || return 0
  began_at=$(date +%s)
  echo "every verdict is out; shrinking the failures of ${#ids[@]} students" | tee -a "$out/progress.log"
  in_lanes "$jobs" shrink_student .shrunk show_shrunk
  echo "failures shrunk in $(($(date +%s) - began_at)) s" | tee -a "$out/progress.log"
}
failed_tests() {  # junit file: the names of its failed tests, as a ctest -R alternation
  grep -o '<testcase name="[^"]*"[^>]*status="fail"' "$1" 2>/dev/null | sed 's/^<testcase name="\([^"]*\)".*/\1/' |
    sed 's/[].[\*^$()+?{}|]/\\&/g' | paste -sd'|'
}
failed_gates() {  # junit file: the gates its tests' GATE lines failed, space-separated
  grep -o 'GATE [^ ]* FAIL' "$1" 2>/dev/null | cut -d' ' -f2 | sort -u | paste -sd' '
}
shrink_student() {  # staged id, its position
  local id="$1" dest="$out/$1" failed gates
  failed=$(failed_tests "$dest/junit.xml")
  # A day test runs again for its failed gates' shared cases alone (a timed
  # case does not shrink); one that failed with no GATE line (a crash) runs
  # again whole.
  gates=$(failed_gates "$dest/junit.xml")
  if [[ -n "$failed" ]]; then
    (
      export GRADING_SEED="$seed"
      [[ -z "$gates" ]] || export GRADING_GATES="$gates"
      if ((${#gpus[@]})); then export CUDA_VISIBLE_DEVICES="${gpus[$((($2 - 1) % ${#gpus[@]}))]}"; fi
      ctest --test-dir "$build" -L "^$id\$" -R "^($failed)\$" -j "$build_jobs" \
        --output-junit "$dest/junit-shrunk.xml" >"$dest/ctest-shrunk.console" 2>&1
    ) || true
    report_student "$id" >/dev/null || true
  fi
  rm -f "$dest/.shrink"
  touch "$dest/.shrunk"
}
show_shrunk() {
  [[ -s "$out/$1/junit-shrunk.xml" ]] &&
    echo "shrunk the failures of $1 ($(cat "$out/$1/name"))" | tee -a "$out/progress.log" >/dev/null
  rm -f "$out/$1/.shrunk"
}

run_ctest() {  # staged id, position
  local id="$1" position="$2" dest="$out/$1"
  # A ctest that wrote no results or found no tests (it never got to run
  # them) is tried once more; then the student counts as failed, never as a
  # row of "-". A day test's output is read whole (every case's verdict
  # lines, the day's report), hence ctest's limits well above its 300 KB default.
  for _ in 1 2; do
    (
      export GRADING_SEED="$seed" GRADING_SHRINK=off  # shrunk once every verdict is out (shrink_class)
      [[ "$reports" == yes ]] || export GRADING_DAY_REPORTS=off
      if ((${#gpus[@]})); then export CUDA_VISIBLE_DEVICES="${gpus[$(((position - 1) % ${#gpus[@]}))]}"; fi
      ctest --test-dir "$build" -L "^$id\$" -j "$build_jobs" --output-junit "$dest/junit.xml" \
        --test-output-size-passed 1048576 --test-output-size-failed 1048576 --output-log "$dest/ctest.log" >"$dest/ctest.console" 2>&1
    ) || true
    ran_tests "$dest" && return 0
  done
  echo "ctest ran no test (twice): $(tail -c 300 "$dest/ctest.console" | tr '\n' ' ')"
  return 1
}
# A student's day tests, then their reports.
grade_one() {  # staged id, its position
  local id="$1" position="$2" dest="$out/$1"
  if unchanged "$id"; then
    echo "unchanged, $(sed -n 's/^score: //p' "$dest/report.txt")"
    return 0
  fi
  rm -f "$dest"/{stamp,junit.xml,ctest.log,ctest.console,results.json,report.txt,report.html,summary.tsv,.shrink} \
    "$dest"/{junit-shrunk.xml,ctest-shrunk.console}
  wait_for_build "$id"
  run_ctest "$id" "$position" || return 1
  [[ -n "$(failed_tests "$dest/junit.xml")" ]] && touch "$dest/.shrink"
  report_student "$id"
}
# A lane's worker: grade_one's result in .graded, for reap.
graded_pass() {  # staged id, its position
  local result status=0
  result="$(grade_one "$1" "$2")" || status=1
  # Renamed into place, so the reader never sees half a line.
  printf '%s\t%s\t%s\n' "$1" "$status" "$result" >"$out/$1/.graded.part"
  mv "$out/$1/.graded.part" "$out/$1/.graded"
}

# Runs `work ID POSITION` for every student in the background, LANES at
# once. Each ends by writing OUT/ID/<marker>; `show ID` is called for each
# as it ends, in the order they end, and at the end for any that wrote none.
in_lanes() {  # lanes, work, marker, show
  local lanes="$1" work="$2" marker="$3" show="$4" i
  # Only the lanes' own processes are waited for: the students' builder
  # runs beside them.
  local -A lane=()
  pending=()
  for i in "${!ids[@]}"; do
    ((${#lane[@]} < lanes)) || lane_ends
    "$work" "${ids[$i]}" "$((i + 1))" &
    lane[$!]=1
    began[${ids[$i]}]=$(date +%s)
    pending+=("${ids[$i]}")
    show_ended "$marker" "$show"
  done
  while ((${#lane[@]} > 0)); do
    lane_ends
    show_ended "$marker" "$show"
  done
  show_ended "$marker" "$show"
  local q
  for q in "${pending[@]+"${pending[@]}"}"; do "$show" "$q"; done
  pending=()
}
lane_ends() {  # in_lanes's: waits for one of its lanes to end, and frees it
  local ended=""
  wait -n -p ended "${!lane[@]}" 2>/dev/null || true
  # No lane to name: none of them is this shell's to wait for any more.
  if [[ -n "$ended" ]]; then unset "lane[$ended]"; else lane=(); fi
}
show_ended() {  # marker, show: `show` each pending student whose marker is there, in the order they ended
  local still=() q
  for q in "${pending[@]+"${pending[@]}"}"; do
    if [[ -f "$out/$q/$1" ]]; then "$2" "$q"; else still+=("$q"); fi
  done
  pending=("${still[@]+"${still[@]}"}")
}
reap() {  # a student whose grading ended: counted, shown, cleaned up
  local status=1 result="no result"
  [[ -f "$out/$1/.graded" ]] && IFS=$'\t' read -r _ status result <"$out/$1/.graded"
  done_count=$((done_count + 1))
  graded_seconds=$((graded_seconds + $(date +%s) - began[$1]))
  ((status == 0)) || failed=$((failed + 1))
  progress "$1" "$result"
  rm -f "$out/$1/.graded"
}
progress() {  # one line per student done: on the terminal and in progress.log
  # The time left: each student still running needs about the mean of those
  # done less what it has had, each not started the whole mean, shared over
  # the students graded at once.
  local now elapsed eta=0 mean left=0 waiting lanes q
  now=$(date +%s)
  elapsed=$((now - start))
  if ((done_count > 0)); then
    mean=$((graded_seconds / done_count))
    waiting=$((count - done_count))
    for q in "${pending[@]+"${pending[@]}"}"; do
      [[ "$q" == "$1" || -f "$out/$q/.graded" ]] && continue
      waiting=$((waiting - 1))
      ((now - began[$q] < mean)) && left=$((left + mean - (now - began[$q])))
    done
    left=$((left + waiting * mean))
    lanes=$((count - done_count < jobs ? count - done_count : jobs))
    ((lanes > 0)) && eta=$((left / lanes))
  fi
  printf '[%d/%d] %s (%s): %s; %d failed so far, %d s elapsed, about %d s left\n' \
    "$done_count" "$count" "$1" "$(cat "$out/$1/name")" "$2" "$failed" "$elapsed" "$eta" | tee -a "$out/progress.log"
}

# ---------------------------------------------------------------- grade: report
# The student's code worth an instructor's look, by line, as the grade
# target finds it (grade_report precheck): flagged for review in their
# report and the class table, never scored. What a submission may include
# the build lists in course_includes.txt.
precheck_student() {  # staged id
  local file files=()
  while IFS= read -r -d '' file; do files+=("$file"); done < <(find "$class/$1" -type f -print0 | LC_ALL=C sort -z)
  : >"$out/$1/precheck.tsv"
  ((${#files[@]})) || return 0
  "$tool" precheck --allow-list "$build/course_includes.txt" --tsv "$out/$1/precheck.tsv" "${files[@]}" >/dev/null 2>>"$out/$1/report.err" || true
}

# One student's reports from their ctest run and their build's records:
# report.txt, results.json, summary.tsv, report.html; then the stamp that
# lets a rerun skip them, and their score on stdout.
report_student() {  # staged id
  local id="$1" dest="$out/$1"
  precheck_student "$id"
  local args=(--gates "$build/gates.tsv" --prefix "$id." --build-records "$build/build-records/$id"
    --flags "$dest/precheck.tsv"
    --student "$(cat "$dest/name")" ${days:+--days "$days"} --header "student=$(cat "$dest/name")"
    --header "seed=$seed" --results-json "$dest/results.json" --summary-row "$dest/summary.tsv")
  local junits=()
  [[ -s "$dest/junit.xml" ]] && junits+=(--junit "$dest/junit.xml")
  [[ -s "$dest/ctest.log" ]] && args+=(--ctest-log "$dest/ctest.log")
  args+=("${junits[@]+"${junits[@]}"}")
  [[ -s "$dest/junit-shrunk.xml" ]] && args+=(--shrunk "$dest/junit-shrunk.xml")
  local rc=0
  "$tool" "${args[@]}" >"$dest/report.txt" 2>"$dest/report.err" || rc=$?
  if ((rc == 2 || rc > 3)); then  # 1: a gate failed, 3: this machine could not run some; both reported
    echo "grade_report failed: $(head -c 300 "$dest/report.err")"
    return 1
  fi
  local page=(report --results "$dest/results.json" --out "$dest/report.html" "${junits[@]+"${junits[@]}"}" --prefix "$id.")
  page+=(--charts "$build/charts.tsv")
  pictures "$tool" "${page[@]}" 2>>"$dest/report.err"
  echo "${stamps[$id]}" >"$dest/stamp"
  sed -n 's/^score: //p' "$dest/report.txt"
}

# The class table and dashboard of everyone graded; OUT/done when nobody failed.
report_class() {
  local rows=() id
  for id in "${ids[@]}"; do
    [[ -s "$out/$id/summary.tsv" ]] && rows+=("$out/$id/summary.tsv")
  done
  if ((${#rows[@]})); then
    "$tool" summarize --csv "$out/summary.csv" --markdown "$out/summary.md" "${rows[@]}" >/dev/null
    echo "class table: $out/summary.csv, $out/summary.md"
    rm -f "$out/dashboard.html"
    pictures "$tool" class "$out"
    [[ -s "$out/dashboard.html" ]] && echo "class dashboard: $out/dashboard.html"
  fi
  ((failed == 0)) && touch "$out/done"
  ((failed == 0))
}

case "${1:-}" in
  merge) shift; merge "$@" ;;
  slurm) shift; slurm "$@" ;;
  ""|-h|--help) usage ;;
  *) grade "$@" ;;
esac
