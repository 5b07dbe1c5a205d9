#!/usr/bin/env bash
# Every hostile submission and correct variant (tests/<day>/hostile/*.cu),
# built as a student's file through a class build, with <day>.builds read off
# what the build recorded: it passes (no record, the sealed unit made) for
# every file the runners grade, the correct variants among them, and fails
# with the file's `expect:` words, which the report quotes, for every file
# whose header says `fails: <day>.builds`. A file that includes repository
# code by a relative path (the instructor solution, the stub: a fixture's
# privilege) gets a copy of it in its own folder, as a student's would.
# Only the students' sealed units are built: no runner, nothing run.
source "$(dirname "$0")/common.sh"
root=$GRADING_TEST_SOURCE
dir="$work/build-verdicts"
report="$GRADING_TEST_BUILD/harness/grading/grade_report"
gates="$GRADING_TEST_BUILD/gates.tsv"
[[ -x $report && -f $gates ]] || fail "this check reads the build's grade_report and gates.tsv"
rm -rf "$dir" && mkdir -p "$dir/class"

header() {  # file, key: the value of its "// key: value" line
  sed -n "s|^// $2: ||p" "$1" | head -1
}

students=() days=() files=() targets=()
for file in "$root"/tests/*/hostile/*.cu; do
  day=$(basename "$(dirname "$(dirname "$file")")")
  exercise=$(basename "$(ls "$root/exercises/$day"/*.cu)")
  student=$(printf 's%04d' $((${#students[@]} + 1)))
  folder="$dir/class/$student/$day"
  mkdir -p "$folder"
  while read -r path; do
    cp "$root/${path#../../../}" "$folder/copied_$(basename "$path")"
  done < <(sed -n 's|^#include "\(\.\./\.\./\.\./[^"]*\)".*|\1|p' "$file")
  sed 's|^#include "\.\./\.\./\.\./[^"]*/\([^/"]*\)"|#include "copied_\1"|' "$file" >"$folder/$exercise"
  students+=("$student") days+=("$day") files+=("$file")
  targets+=("${day}_${student}_${exercise%.cu}_sealed")
done
echo "staged ${#students[@]} files as students"

mapfile -t args < <(configure_args)
# With a class's compile cache, as grade_class.sh configures one: each file
# compiles at the neutral folder, and its messages still name it.
cmake -S "$root" -B "$dir/build" "${args[@]}" "-DGRADING_CLASS_DIR=$dir/class" -DGRADING_BUILD_TESTS=OFF \
  -DGRADING_BUILD_PLANTED=OFF -DGRADING_BUILD_BENCH=OFF "-DGRADING_COMPILE_CACHE=$dir/compile-cache" \
  >"$dir/configure.log" 2>&1 ||
  { tail -30 "$dir/configure.log"; fail "the class of hostile files did not configure"; }
cmake --build "$dir/build" --target "${targets[@]}" -- -k 0 >"$dir/build.log" 2>&1 || true

failures=0
for i in "${!students[@]}"; do
  student=${students[$i]} day=${days[$i]} file=${files[$i]} name=$(basename "${files[$i]}")
  records="$dir/build/build-records/$student"
  recorded=$(awk -F'\t' 'FNR > 1 { print $6; exit }' "$records/$day"/*.tsv 2>/dev/null || true)
  sealed="$dir/build/harness/$day/sealed/lib${targets[$i]%_sealed}.a"
  if [[ $(header "$file" fails) == "$day.builds" ]]; then
    expect=$(header "$file" expect)
    if [[ -z $recorded ]] || ! grep -qE "$expect" <<<"$recorded"; then
      echo "FAIL: $day/$name should fail $day.builds with /$expect/; recorded: ${recorded:-nothing}" >&2
      failures=$((failures + 1))
      continue
    fi
    gate=$("$report" --gates "$gates" --build-records "$records" 2>&1 | grep -E "^$day\.builds +FAIL" || true)
    grep -qE "$expect" <<<"$gate" || {
      echo "FAIL: the report's $day.builds does not quote $day/$name's refusal" >&2
      failures=$((failures + 1))
    }
    echo "$day/$name: $day.builds FAIL, as it must: $recorded"
  elif [[ -n $recorded || ! -f $sealed ]]; then
    echo "FAIL: $day/$name should build; recorded: ${recorded:-nothing, but no sealed unit}" >&2
    failures=$((failures + 1))
  fi
done
((failures == 0)) || fail "$failures of ${#students[@]} files got the wrong <day>.builds verdict (log: $dir/build.log)"
echo "all ${#students[@]} hostile and correct files got their <day>.builds verdict"
