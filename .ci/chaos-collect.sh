#!/usr/bin/env bash
# Copies what .ci/chaos-verdicts.py reads from a chaos class's output folder
# (.ci/chaos-class.sh's OUT_DIR), running or done, into DEST: its log, the
# class's traces, the processes running now, the GPU slots' holders, the
# tests' notices of long waits for the GPU, and per
# grading (graded/, alone/) the names, the progress log and each student's
# results.json and ctest consoles, a few MB in all. A device run
# writes them to $OUT at every poll, so a run cut short can still be
# checked here: chaos-verdicts.py DEST/graded DEST/alone --partial.
# A DEST ending in .tar.gz (or .tgz) is written as that one archive: the
# device tool brings back only the first folder levels under $OUT, which
# leaves out graded/s0001/results.json.
#   .ci/chaos-collect.sh OUT_DIR DEST          (DEST: a folder, or DEST.tar.gz)
set -uo pipefail
src=$1
dest=$2
archive=""
if [[ "$dest" == *.tar.gz || "$dest" == *.tgz ]]; then
  archive=$dest
  dest=$(mktemp -d)
  trap 'rm -rf "$dest"' EXIT
fi
mkdir -p "$dest"
cp "$src"/*.txt "$src"/*.log "$src"/*.tsv "$dest"/ 2>/dev/null
# What is running now, as a tree with each process's age and what it waits
# in: a class that stalls shows which test, runner or grader is stuck where.
# A fork bomb's children would make it huge: its first 5,000 lines, led by
# how many processes there are of each command.
{
  echo "== processes by command ($(ps -e --no-headers | wc -l) in all)"
  ps -eo comm= 2>/dev/null | sort | uniq -c | sort -rn | head -20
  echo "== tree"
  ps -eo pid,ppid,etimes,stat,wchan:24,args --forest 2>/dev/null | cut -c1-300 | head -5000
} >"$dest/processes.txt"
# Who holds which GPU slot, turn or queue file (gpu_slots.h: flock()ed files,
# named by inode in /proc/locks): a wait for the GPU that never ends names its holder.
{
  echo "== slot files (inode name)"
  ls -i "${TMPDIR:-/tmp}/grading-gpu-slots" 2>/dev/null
  echo "== /proc/locks"
  cat /proc/locks 2>/dev/null
} >"$dest/slot-locks.txt"
# The tests' own notices of a long wait for the GPU (gpu_slots.h), with the
# holders they name: a test's output reaches its ctest.log once it ended.
for log in "$src"/{graded,alone}/s[0-9]*/ctest.log; do
  [ -f "$log" ] || continue
  awk -v from="$log" '/^grading: pid [0-9]+ has waited/ { print from ": " $0; held = 1; next }
                      held && /^  gpu-/ { print; next } { held = 0 }' "$log"
done >"$dest/slot-waits.txt" 2>/dev/null
for grading in graded alone; do
  [ -d "$src/$grading" ] || continue
  mkdir -p "$dest/$grading"
  cp "$src/$grading"/{names.tsv,progress.log,summary.md,seed} "$dest/$grading"/ 2>/dev/null
  for student in "$src/$grading"/s[0-9]*/; do
    id=$(basename "$student")
    for file in results.json ctest.console; do
      [ -f "$student$file" ] || continue
      mkdir -p "$dest/$grading/$id"
      cp "$student$file" "$dest/$grading/$id/"
    done
  done
done
[[ -z "$archive" ]] || tar czf "$archive" -C "$dest" . || exit 1
exit 0
