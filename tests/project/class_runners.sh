#!/usr/bin/env bash
# A class build's class_harness builds every runner the class's suites call
# besides the students' own (the instructor's, a day's course runner).
# grade_class.sh builds class_harness and then only the students' runners:
# a runner it missed fails a gate for every student of the class, while each
# of them graded alone passes. Checked on ninja's build graph of a class of
# one (the instructor solution staged as s0001), so nothing is compiled.
source "$(dirname "$0")/common.sh"
dir="$work/class-runners"
root=$GRADING_TEST_SOURCE  # class-lib.sh's
source "$root/.ci/class-lib.sh"
rm -rf "$dir" && mkdir -p "$dir/class"
stage_solution "$dir/class/s0001"
mapfile -t args < <(configure_args)
cmake -S "$root" -B "$dir/build" "${args[@]}" "-DGRADING_CLASS_DIR=$dir/class" >"$dir/configure.log" 2>&1 ||
  { tail -30 "$dir/configure.log"; fail "a class of one did not configure"; }

built=$(ninja -C "$dir/build" -t query class_harness | sed -n '/^  input:/,/^  outputs:/s/^    //p')
checked=0
for suites in "$dir"/build/harness/*/suites.tsv; do
  while IFS=$'\t' read -r kind path _; do
    [[ $kind == instructor || $kind == course ]] || continue
    grep -qxF "${path#"$dir/build/"}" <<<"$built" ||
      fail "class_harness does not build the $kind runner $path, which every student's $(basename "$(dirname "$suites")") tests call"
    checked=$((checked + 1))
  done <"$suites"
done
((checked > 0)) || fail "no instructor or course runner in any suites.tsv under $dir/build/harness"
echo "class_harness builds all $checked instructor and course runners the class's suites call"
