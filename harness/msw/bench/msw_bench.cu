// msw benchmark: the first mismatching word of two device-resident arrays of
// 2^27 words (1 GiB each), three ways, with the mismatch nowhere, in the
// middle and near the start:
//   two_phase  the course's method (msw::two_phase_on_block: b already in the
//              scratch block; the block is refreshed from b outside the timed
//              region, since phase 1 overwrites it with flags)
//   fast       fast_find_mismatch: one pass, 16-byte loads, early exit
//   thrust     thrust::mismatch(thrust::device, ...)
// plus a device-to-device copy of one array (2 GiB moved) as the bandwidth
// ceiling and an empty launch with an 8-byte read-back as the fixed cost.
//
// Times come from CUDA events (manual time). Counters: GB/s = bytes the
// search must read (both arrays up to and including the mismatch) / time;
// vs_copy = GB/s / the copy's GB/s; vs_thrust = thrust's time / this time.
// The ratios need the copy and thrust rows, which run first.
//
//   msw_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <thrust/execution_policy.h>
#include <thrust/mismatch.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

#include "harness/bench.h"
#include "harness/cuda_check.h"
#include "msw.cuh"
#include "arrays.h"
#include "msw_fast.cuh"

namespace {

constexpr size_t kWords = size_t(1) << 27;
constexpr uint64_t kKey = 2024;  // a benchmark, not a grade: a fixed key is fine here
constexpr uint64_t kFlip = uint64_t{1} << 40;  // the planted word differs in this bit
constexpr double kMinTime = 0.25;  // seconds of measured (manual) time per row

enum Placement { kNone = 0, kMiddle = 1, kStart = 2 };

size_t mismatchAt(int placement) {
    switch (placement) {
        case kMiddle: return kWords / 2 + 12345;
        case kStart: return 1000;
        default: return kWords;
    }
}

double bytesRead(int placement) {
    const size_t at = mismatchAt(placement);
    return 2.0 * sizeof(uintmax_t) * static_cast<double>(at < kWords ? at + 1 : kWords);
}

__global__ void fillWords(uintmax_t* out, size_t n, uint64_t key) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        out[i] = msw::arrays::word(key, i);
    }
}

__global__ void emptyKernel() {}

// The arrays, made once: a, b (equal), the two-phase scratch block.
struct Arrays {
    msw::DeviceWords a, b, block;
    Arrays() : a(msw::device_words(kWords)), b(msw::device_words(kWords)), block(alloc_large_block_to_device(kWords)) {
        fillWords<<<1024, 256>>>(a.get(), kWords, kKey);
        CUDA_TRY(cudaGetLastError());
        CUDA_TRY(cudaMemcpy(b.get(), a.get(), kWords * sizeof(uintmax_t), cudaMemcpyDeviceToDevice));
        CUDA_TRY(cudaDeviceSynchronize());
    }
    static Arrays& get() {
        static Arrays arrays;
        return arrays;
    }
    // b differs from a at `placement` while the object lives.
    struct Plant {
        Plant(Arrays& arr, int placement) : arr_(arr), at_(mismatchAt(placement)) {
            if (at_ >= kWords) return;
            const uint64_t w = msw::arrays::word(kKey, at_) ^ kFlip;
            CUDA_TRY(cudaMemcpy(arr_.b.get() + at_, &w, sizeof w, cudaMemcpyHostToDevice));
        }
        ~Plant() {
            if (at_ >= kWords) return;
            const uint64_t w = msw::arrays::word(kKey, at_);
            cudaMemcpy(arr_.b.get() + at_, &w, sizeof w, cudaMemcpyHostToDevice);
        }
        Arrays& arr_;
        size_t at_;
    };
};

using grading::bench::EventTimer;

double copyGBps = 0;                     // filled by the copy row
std::map<int, double> thrustSeconds;     // per placement, filled by the thrust rows

void setCounters(benchmark::State& state, double totalSeconds, double bytes, int placement, bool isThrust) {
    const double perIter = totalSeconds / static_cast<double>(state.iterations());
    const double gbps = bytes / perIter * 1e-9;
    state.counters["GB/s"] = gbps;
    state.counters["us"] = perIter * 1e6;
    if (copyGBps > 0) state.counters["vs_copy"] = gbps / copyGBps;
    if (isThrust) {
        thrustSeconds[placement] = perIter;
    } else if (thrustSeconds.count(placement)) {
        state.counters["vs_thrust"] = thrustSeconds[placement] / perIter;
    }
}

template <typename F>
void run(benchmark::State& state, int placement, bool isThrust, F&& search) {
    try {
        Arrays& arr = Arrays::get();
        Arrays::Plant plant(arr, placement);
        EventTimer ev;
        const size_t want = mismatchAt(placement);
        double total = 0;
        for (auto _ : state) {
            size_t got = 0;
            const double s = search(arr, ev, &got);
            if (got != want) {
                state.SkipWithError(("wrong answer " + std::to_string(got) + ", want " + std::to_string(want)).c_str());
                return;
            }
            state.SetIterationTime(s);
            total += s;
        }
        setCounters(state, total, bytesRead(placement), placement, isThrust);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

void BM_Copy(benchmark::State& state) {
    try {
        Arrays& arr = Arrays::get();
        EventTimer ev;
        double total = 0;
        for (auto _ : state) {
            const double s = ev.seconds([&] {
                CUDA_TRY(cudaMemcpyAsync(arr.block.get(), arr.a.get(), kWords * sizeof(uintmax_t),
                                         cudaMemcpyDeviceToDevice));
            });
            state.SetIterationTime(s);
            total += s;
        }
        const double perIter = total / static_cast<double>(state.iterations());
        copyGBps = 2.0 * kWords * sizeof(uintmax_t) / perIter * 1e-9;  // read + write
        state.counters["GB/s"] = copyGBps;
        state.counters["us"] = perIter * 1e6;
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

void BM_LaunchFloor(benchmark::State& state) {
    try {
        EventTimer ev;
        unsigned long long* slot = nullptr;
        CUDA_TRY(cudaMalloc(&slot, sizeof *slot));
        double total = 0;
        for (auto _ : state) {
            unsigned long long host = 0;
            const double s = ev.seconds([&] {
                emptyKernel<<<1, 32>>>();
                CUDA_TRY(cudaGetLastError());
                CUDA_TRY(cudaMemcpy(&host, slot, sizeof host, cudaMemcpyDeviceToHost));
            });
            state.SetIterationTime(s);
            total += s;
        }
        cudaFree(slot);
        state.counters["us"] = total / static_cast<double>(state.iterations()) * 1e6;
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

void BM_Thrust(benchmark::State& state) {
    const int placement = static_cast<int>(state.range(0));
    run(state, placement, true, [](Arrays& arr, EventTimer& ev, size_t* got) {
        return ev.seconds([&] {
            const uintmax_t* a = arr.a.get();
            const auto p = thrust::mismatch(thrust::device, a, a + kWords, static_cast<const uintmax_t*>(arr.b.get()));
            *got = static_cast<size_t>(p.first - a);
        });
    });
}

void BM_TwoPhase(benchmark::State& state) {
    const int placement = static_cast<int>(state.range(0));
    run(state, placement, false, [](Arrays& arr, EventTimer& ev, size_t* got) {
        // Phase 1 turns the block's copy of b into flags: restore it, untimed.
        CUDA_TRY(cudaMemcpy(arr.block.get(), arr.b.get(), kWords * sizeof(uintmax_t), cudaMemcpyDeviceToDevice));
        return ev.seconds([&] { *got = msw::two_phase_on_block(arr.a.get(), arr.block.get(), kWords); });
    });
}

void BM_Fast(benchmark::State& state) {
    const int placement = static_cast<int>(state.range(0));
    const msw::FastOptions options{static_cast<int>(state.range(1))};
    run(state, placement, false, [options](Arrays& arr, EventTimer& ev, size_t* got) {
        return ev.seconds([&] { *got = fast_find_mismatch(arr.a.get(), arr.b.get(), kWords, options); });
    });
}

void placements(benchmark::internal::Benchmark* b) {
    b->ArgName("mismatch");
    for (int p : {kNone, kMiddle, kStart}) b->Arg(p);
}

void fastArgs(benchmark::internal::Benchmark* b) {
    b->ArgNames({"mismatch", "blocks_per_sm"});
    for (int p : {kNone, kMiddle, kStart}) b->Args({p, msw::FastOptions{}.blocksPerSm});
    // Fewer resident blocks: is the default more than the bandwidth needs?
    // (64 registers a thread cap it at 4 blocks of 256 threads per SM.)
    for (int perSm : {1, 2}) b->Args({kNone, perSm});
}

// Registration order is run order: the copy and thrust rows feed the ratios.
BENCHMARK(BM_Copy)->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(kMinTime);
BENCHMARK(BM_LaunchFloor)->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(kMinTime);
BENCHMARK(BM_Thrust)->Apply(placements)->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(kMinTime);
BENCHMARK(BM_TwoPhase)->Apply(placements)->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(kMinTime);
BENCHMARK(BM_Fast)->Apply(fastArgs)->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(kMinTime);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    if (const int skip = grading::bench::requireDevice("msw_bench"); skip != 0) return skip;
    std::printf("n = 2^27 words per array (1 GiB); mismatch:0 = none, mismatch:1 = at word %zu (middle), "
                "mismatch:2 = at word %zu (near the start)\n",
                mismatchAt(kMiddle), mismatchAt(kStart));
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
