#!/usr/bin/env bash
# Every runner the build made installs the grader's system-call filter
# before any constructor: it defines the .preinit_array entry
# GRADING_INSTALL_SYSCALL_FILTER() adds (runnerMain's file does, for every
# day). A runner that stands in for a missing file runs no submitted code
# and is left out.
#   runners_filtered.sh BUILD_DIR
set -uo pipefail
runners="$1/runners"
[ -d "$runners" ] || { echo "no runners in $1"; exit 1; }
checked=0 unfiltered=()
for runner in "$runners"/*; do
  [[ -f "$runner" && -x "$runner" ]] || continue
  symbols=$(nm "$runner" 2>/dev/null)  # whole: grep -q would end nm early, failing the pipe
  grep -aq "is missing" "$runner" && ! grep -q 'runnerMain' <<<"$symbols" && continue
  checked=$((checked + 1))
  grep -q 'grading_preinit_syscall_filter$' <<<"$symbols" || unfiltered+=("$(basename "$runner")")
done
((checked > 0)) || { echo "no runner found in $runners"; exit 1; }
if ((${#unfiltered[@]})); then
  echo "${#unfiltered[@]} of $checked runners install no system-call filter: ${unfiltered[*]}"
  exit 1
fi
echo "all $checked runners install the grader's system-call filter"
