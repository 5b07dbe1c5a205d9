#!/usr/bin/env bash
# The shared layers know no day: no day's name (a folder of reference/), no
# gate of a day (its prefix, as harness/<day>/day.cpp declares it), and none
# of the days' input kinds or algorithms, in harness/core, harness/gtest,
# harness/grading (the vendored chart libraries and the page's CSS aside),
# harness/cuda, harness/seal or cmake/. What is a day's own lives in
# harness/<day>/; a new day then edits no shared file.
#   shared_layers.sh REPO_ROOT
set -uo pipefail
source "$(dirname "$0")/script_test.sh"
days=$(cd "$root/reference" && ls -d */ | tr -d /)
prefixes=$(for day in $days; do
  [ -f "$root/harness/$day/day.cpp" ] && grep -ohE 'GateSpec\("[^".]+\.' "$root/harness/$day/day.cpp" |
    sed 's/GateSpec("//; s/\.$//'
done | sort -u)
[ -n "$days" ] && [ -n "$prefixes" ] || fail "found no day or gate to look for"
join() { tr '\n' ' ' | sed 's/ *$//; s/ /|/g'; }
words="\\b($(join <<<"$days"))\\b|\\b($(join <<<"$prefixes"))\\.[a-z_]+"
words+="|\\b(bfs|graphs?|grids?|stencils?|diamonds?|frontiers?|vertex|vertices|heat)\\b"
hits=$(cd "$root" && grep -rniE "$words" harness/core harness/gtest harness/grading harness/cuda harness/seal cmake \
  --exclude-dir=vendor --exclude='*.css')
[ -z "$hits" ] || fail "the shared layers name a day's own:
$hits"
finish "the shared layers name none of $(echo $days | wc -w) days, their gates, inputs or algorithms"
