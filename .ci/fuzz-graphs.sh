#!/usr/bin/env bash
# Fuzzes the three graph loaders (tests/day38/graph_fuzz.cpp) for a
# bounded time with clang's libFuzzer and AddressSanitizer, starting from the
# kept corpus. A crash fails the run and leaves its input beside the corpus
# (tests/day38/fuzz-corpus/crash-*), to be fixed and kept as a
# regression test (the host test GraphFuzzCorpus reads every file there).
# CI fuzzes from a fixed seed, so a run that passed passes again and a new
# finding comes from a changed loader, not from luck; FUZZ_SEED=0 lets
# libFuzzer pick one (a longer hunt, by hand).
#   .ci/fuzz-graphs.sh [seconds]      (default 60)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
day="$root/harness/day38"
tests="$root/tests/day38"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clang++ -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$day" -I"$root/reference/day38" -I"$root/harness/core/include" "$tests/graph_fuzz.cpp" "$day/graph.cpp" -o "$work/graph_fuzz"
mkdir -p "$work/corpus"
cp "$tests"/fuzz-corpus/* "$work/corpus/"
rm -f "$work/corpus/README.md"
# -rss_limit_mb: an input that makes a loader allocate past this is a finding.
"$work/graph_fuzz" "$work/corpus" -max_total_time="$seconds" -rss_limit_mb=1024 -malloc_limit_mb=512 -seed="${FUZZ_SEED:-1}" \
  -artifact_prefix="$tests/fuzz-corpus/crash-" -print_final_stats=1 2>&1 | tail -25
