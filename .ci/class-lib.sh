# Sourced by the class scripts and harness.project.class_runners; needs $root.
# stage_solution DIR: a student folder holding the instructor solution of
# every exercise (each exercises/<day>/<file> from reference/<day>/solution/).
stage_solution() {
  cp -r "$root/exercises" "$1"
  local file rel
  for file in "$1"/*/*; do
    rel=${file#"$1"/}
    cp "$root/reference/${rel%%/*}/solution/${rel#*/}" "$file"
  done
}
