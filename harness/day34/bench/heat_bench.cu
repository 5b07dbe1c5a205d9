// day 34 benchmark: one step of the heat equation on the course's 2048 x 2048
// grid, each launch between its own pair of events as the runner times it:
//   copy_float4   16-byte loads and stores of the whole grid: the floor
//   copyGrid      the course's copy (one float per thread)
//   global        the course's heatStepGlobal
//   tiled         heatStepTiled, the instructor solution of the exercise
//   fast          heatStepFast (solution/heat_fast.cu) at its default strip,
//                 then rows:N at strips of N rows per thread
// Counters: us per step; GB/s counting one read and one write per cell (the
// report's byte count); vs_float4 = this time / the float4 copy's (the copy
// row runs first). The stencil rows check their output against
// heatStepGlobal's (relative 1e-5) and skip with the first difference.
//
//   day34_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "fast_stencil.h"
#include "harness/bench.h"
#include "harness/cuda_check.h"
#include "heat_initial.h"
#include "heat_kernels.h"

namespace {

constexpr double kMinTime = 0.2;  // seconds of measured time per row
constexpr unsigned kCopyThreads = 256;

__global__ void copyFloat4(const float4* __restrict__ in, float4* __restrict__ out, size_t quads) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < quads) out[i] = in[i];
}

// The two ping-pong buffers, the course's grid in both (ring included).
struct Grids {
    float* in = nullptr;
    float* out = nullptr;
    std::vector<float> want;  // heatStepGlobal's step, the stencils' reference
    Grids() {
        const std::vector<float> init = day34::initialGrid(day34::kN);
        const size_t bytes = day34::kCells * sizeof(float);
        CUDA_TRY(cudaMalloc(&in, bytes));
        CUDA_TRY(cudaMalloc(&out, bytes));
        CUDA_TRY(cudaMemcpy(in, init.data(), bytes, cudaMemcpyHostToDevice));
        CUDA_TRY(cudaMemcpy(out, init.data(), bytes, cudaMemcpyHostToDevice));
        day34::launchHeatStepGlobal(in, out, day34::kN, day34::kStableR);
        CUDA_TRY(cudaGetLastError());
        want = download();
    }
    std::vector<float> download() const {
        std::vector<float> v(day34::kCells);
        CUDA_TRY(cudaMemcpy(v.data(), out, v.size() * sizeof(float), cudaMemcpyDeviceToHost));
        return v;
    }
    static Grids& get() {
        static Grids grids;
        return grids;
    }
};

double float4Seconds = 0;  // filled by the copy_float4 row

// The first cell where out differs from heatStepGlobal's step by more than rounding.
std::string firstDifference(const Grids& g) {
    const std::vector<float> got = g.download();
    for (size_t i = 0; i < got.size(); ++i) {
        const double scale = std::max(1.0, std::fabs(static_cast<double>(g.want[i])));
        if (!(std::fabs(static_cast<double>(got[i]) - g.want[i]) <= 1e-5 * scale)) {
            return "cell " + std::to_string(i) + ": got " + std::to_string(got[i]) + ", want " + std::to_string(g.want[i]);
        }
    }
    return "";
}

void step(benchmark::State& state, const std::function<void(Grids&)>& launch, bool isStencil, bool isFloor) {
    try {
        Grids& g = Grids::get();
        launch(g);  // module load, outside the measurement
        CUDA_TRY(cudaGetLastError());
        grading::bench::EventTimer timer;
        double total = 0;
        for (auto _ : state) {
            const double s = timer.seconds([&] { launch(g); });
            state.SetIterationTime(s);
            total += s;
        }
        CUDA_TRY(cudaGetLastError());
        if (isStencil) {
            if (const std::string wrong = firstDifference(g); !wrong.empty()) {
                state.SkipWithError(wrong.c_str());
                return;
            }
        }
        const double perStep = total / static_cast<double>(state.iterations());
        if (isFloor) float4Seconds = perStep;
        state.counters["us"] = perStep * 1e6;
        state.counters["GB/s"] = 2.0 * day34::kCells * sizeof(float) / perStep * 1e-9;
        if (float4Seconds > 0) state.counters["vs_float4"] = perStep / float4Seconds;
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

void add(const std::string& name, std::function<void(Grids&)> launch, bool isStencil, bool isFloor = false) {
    benchmark::RegisterBenchmark(("step_2048/" + name).c_str(),
                                 [=](benchmark::State& s) { step(s, launch, isStencil, isFloor); })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond)
        ->MinTime(kMinTime);
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    if (const int skip = grading::bench::requireDevice("day34_bench"); skip != 0) return skip;
    const int n = day34::kN;
    const float r = day34::kStableR;
    // Registration order is run order: the floor first, for vs_float4.
    add("copy_float4", [](Grids& g) {
        const size_t quads = day34::kCells / 4;
        copyFloat4<<<static_cast<unsigned>((quads + kCopyThreads - 1) / kCopyThreads), kCopyThreads>>>(
            reinterpret_cast<const float4*>(g.in), reinterpret_cast<float4*>(g.out), quads);
    }, false, true);
    add("copyGrid", [](Grids& g) { day34::launchCopyGrid(g.in, g.out, day34::kCells); }, false);
    add("global", [=](Grids& g) { day34::launchHeatStepGlobal(g.in, g.out, n, r); }, true);
    add("tiled", [=](Grids& g) { day34::launchHeatStepTiled(g.in, g.out, n, r); }, true);
    add("fast", [=](Grids& g) { day34::launchHeatStepFast(g.in, g.out, n, r); }, true);
    for (int rows : {2, 4, 8, 16, 32}) {
        add("fast/rows:" + std::to_string(rows), [=](Grids& g) { day34::launchHeatStepFast(g.in, g.out, n, r, rows); },
            true);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
