// What a runner that floods its output costs the grader: runProcess reading
// a child's stdout to its end, keeping the tail (ProcessOptions::outputCap),
// as a session call does while the chaos class's stdout_flood writes 2 GiB
// per call (docs/performance.md, the chaos class's long exclusive holds).
//   <build>/lab/output_drain [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <string>

#include "harness/process.h"

namespace {

void drainChildOutput(benchmark::State& state) {
    const std::string bytes = std::to_string(state.range(0) << 20);
    for (auto _ : state) {
        const grading::ProcessResult r = grading::runProcess({"/usr/bin/head", "-c", bytes, "/dev/zero"});
        if (!r.exitedWith(0) || r.out.size() != grading::ProcessOptions{}.outputCap) state.SkipWithError("head failed");
    }
    state.SetBytesProcessed(state.iterations() * (state.range(0) << 20));
}
BENCHMARK(drainChildOutput)->Arg(256)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

// The tail kept by itself, 64 KiB reads (a pipe's default capacity).
void appendReads(benchmark::State& state) {
    const std::string read(64 << 10, 'y');
    for (auto _ : state) {
        std::string kept;
        bool truncated = false;
        for (int64_t k = 0; k < (state.range(0) << 20) / int64_t(read.size()); ++k) {
            grading::appendCapped(&kept, read.data(), read.size(), grading::ProcessOptions{}.outputCap, &truncated);
        }
        benchmark::DoNotOptimize(kept);
    }
    state.SetBytesProcessed(state.iterations() * (state.range(0) << 20));
}
BENCHMARK(appendReads)->Arg(2048)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
