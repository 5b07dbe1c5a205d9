// How long a whole search must be sampled before its median repeats (issue 13;
// docs/performance.md, "Whole searches over minutes"). For SECONDS (default 60), in one
// process, calls shaped as a report's runner makes them: the host round-trip
// probe (host_round_trip.h) and a level-shaped one (a count reset, a one-warp
// kernel, the count read back, as each search level does), then 10 timed whole
// searches of the word graph with the warp mapping; the probes again, then 10
// with the edge mapping; and so on, spinning while it waits as a timed runner
// call does. The searches are the benchmark's level loop (loaded_graph.h),
// which reads each count back into pageable memory where the runner uses
// pinned. Then, per figure, the median of the whole run and, for windows of
// 0.5 to 30 s, how far the windows' medians lie from it (the largest and the
// 90th percentile): what reports that sampled that long would show from one to
// the next. Then the run in 3 s windows, each search's host time split into
// its levels' calls (the count's resets, the expansions, the read-backs that
// wait for each level), and Pearson's r between each probe and each search,
// over 1 s windows and call by call. Beside them, the host's own state: the
// CPU the thread ran on (most, and how many, per 3 s window; `taskset -c N`
// holds it still), a fixed arithmetic loop (the core's clock, harness/bench.h)
// and a pointer chase through 32 MiB (the memory side, past the core's own
// caches), each with its r against each search. With a second argument, every sample is
// written there (seconds since the start, figure, value). Not a test.
//   <build>/lab/day38_search_drift [SECONDS [SAMPLES.tsv]]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sched.h>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/bench.h"
#include "harness/gpu_state.h"
#include "harness/host_round_trip.h"
#include "harness/timing_stats.h"
#include "loaded_graph.h"

namespace {

constexpr int kRunsPerCall = 10;  // a report's timed call
constexpr int kProbeSamples = 64;  // the runner's probe
constexpr int kCoreLoopIterations = 100000;
constexpr const char* kMappings[] = {"warp", "edge"};

struct Sample {
    double seconds;  // since the start
    float value;
};

struct Call {
    float probeUs;
    float levelProbeUs;
    float medianMs;
};

float median(std::vector<float> v) { return v.empty() ? NAN : grading::summarize(std::move(v)).medianMs; }

std::vector<float> valuesOf(const std::vector<Sample>& samples) {
    std::vector<float> v;
    for (const Sample& s : samples) v.push_back(s.value);
    return v;
}

// The median of each whole window of `width` seconds (NAN where a window
// has no sample, so every figure's windows line up); a last, partial window
// is left out.
std::vector<float> windowMedians(const std::vector<Sample>& samples, double width, double total) {
    const int windows = static_cast<int>(total / width);
    std::vector<std::vector<float>> bins(windows);
    for (const Sample& s : samples) {
        const int bin = static_cast<int>(s.seconds / width);
        if (bin < windows) bins[bin].push_back(s.value);
    }
    std::vector<float> medians;
    for (auto& bin : bins) medians.push_back(median(std::move(bin)));
    return medians;
}

// Over the pairs where both are numbers.
std::optional<double> pearson(const std::vector<float>& xs, const std::vector<float>& ys) {
    std::vector<double> x, y;
    for (size_t i = 0; i < std::min(xs.size(), ys.size()); ++i) {
        if (!std::isnan(xs[i]) && !std::isnan(ys[i])) x.push_back(xs[i]), y.push_back(ys[i]);
    }
    const size_t n = x.size();
    if (n < 3) return std::nullopt;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
    mx /= n, my /= n;
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx == 0 || syy == 0) return std::nullopt;
    return sxy / std::sqrt(sxx * syy);
}

std::string rText(std::optional<double> r) {
    char text[16];
    if (!r) return "none";
    std::snprintf(text, sizeof text, "%+.2f", *r);
    return text;
}

// One random cycle through 32 MiB of indices, each hop waiting for the last.
class CacheChase {
public:
    CacheChase() : next_(size_t{32} << 20 >> 3) {
        std::vector<size_t> order(next_.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        uint64_t state = 0x9E3779B97F4A7C15ull;
        for (size_t i = order.size() - 1; i > 0; --i) {  // Fisher-Yates with a fixed xorshift
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            std::swap(order[i], order[state % (i + 1)]);
        }
        for (size_t i = 0; i < order.size(); ++i) next_[order[i]] = order[(i + 1) % order.size()];
    }
    // ns per hop over `hops` hops.
    float hopNanos(int hops = 5000) {
        const auto from = std::chrono::steady_clock::now();
        for (int i = 0; i < hops; ++i) at_ = next_[at_];
        return std::chrono::duration<float, std::nano>(std::chrono::steady_clock::now() - from).count() / hops;
    }

private:
    std::vector<size_t> next_;
    size_t at_ = 0;
};

__global__ void countOne(unsigned* count) {
    if (threadIdx.x == 0) atomicAdd(count, 1u);
}

// A level of the search with nothing to search, as courseSearch makes each
// level: the count reset, a one-warp kernel, the count read back. The
// median of `samples`, in us.
float levelRoundTripMicros(unsigned* count, int samples) {
    std::vector<float> micros;
    unsigned host = 0;
    for (int i = 0; i < samples; ++i) {
        const auto from = std::chrono::steady_clock::now();
        CUDA_TRY(cudaMemset(count, 0, sizeof *count));
        countOne<<<1, 32>>>(count);
        CUDA_TRY(cudaMemcpy(&host, count, sizeof host, cudaMemcpyDeviceToHost));
        micros.push_back(std::chrono::duration<float, std::micro>(std::chrono::steady_clock::now() - from).count());
    }
    return median(micros);
}

void printGpu(const char* when) {
    if (const auto gpu = grading::readGpuState("0")) {
        std::printf("GPU %s: SM clock %u MHz, %u C, throttled: %s\n", when, gpu->smClockMHz, gpu->temperatureC,
                    gpu->throttleText().c_str());
    }
}

int drift(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 60.0;
    CUDA_TRY(cudaSetDeviceFlags(cudaDeviceScheduleSpin));  // as a timed runner call waits

    day38::bench::LoadedGraph g("word_graph");
    grading::bench::EventTimer timer;
    // Each mapping's search, checked against the host's answer: before the
    // run (which also loads the kernels' modules) and after it.
    const auto searchesAreRight = [&g] {
        for (const char* mapping : kMappings) {
            if (const std::string wrong = day38::bench::wrongAnswer(g, g.courseSearch(mapping)); !wrong.empty()) {
                std::fprintf(stderr, "%s: %s\n", mapping, wrong.c_str());
                return false;
            }
        }
        return true;
    };
    if (!searchesAreRight()) return 1;
    printGpu("before");

    day38::bench::DeviceArray<unsigned> levelCount(1);
    CacheChase chase;
    std::map<std::string, std::vector<Sample>> samples;  // "probe_us", "level_probe_us", "<mapping>_ms", ...
    std::map<std::string, std::vector<Call>> calls;      // per mapping
    const auto start = std::chrono::steady_clock::now();
    const auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    while (since() < seconds) {
        for (const char* mapping : kMappings) {
            const double at = since();
            const float probeUs = static_cast<float>(grading::hostRoundTripMicros(kProbeSamples).value_or(NAN));
            samples["probe_us"].push_back({at, probeUs});
            const float levelProbeUs = levelRoundTripMicros(levelCount.get(), kProbeSamples);
            samples["level_probe_us"].push_back({since(), levelProbeUs});
            std::vector<float> runs;
            for (int r = 0; r < kRunsPerCall; ++r) {
                day38::bench::LoadedGraph::LevelCallSeconds split;
                const float ms = static_cast<float>(timer.seconds([&] { g.courseSearch(mapping, &split); }) * 1e3);
                const double now = since();
                const std::string name(mapping);
                samples[name + "_ms"].push_back({now, ms});
                samples[name + "_reset_us"].push_back({now, static_cast<float>(split.reset * 1e6)});
                samples[name + "_expand_us"].push_back({now, static_cast<float>(split.expand * 1e6)});
                samples[name + "_readback_us"].push_back({now, static_cast<float>(split.readBack * 1e6)});
                runs.push_back(ms);
            }
            calls[mapping].push_back({probeUs, levelProbeUs, median(runs)});
            samples["cpu"].push_back({since(), static_cast<float>(sched_getcpu())});
            samples["core_loop_us"].push_back({since(), grading::bench::cpuLoopMicros(kCoreLoopIterations)});
            samples["chase_hop_ns"].push_back({since(), chase.hopNanos()});
        }
    }
    const double total = since();
    printGpu("after");
    if (!searchesAreRight()) return 1;

    std::printf("%.1f s in one process, %zu calls of %d searches per mapping\n\n", total, calls["warp"].size(),
                kRunsPerCall);
    std::printf("%-14s %10s  window s  windows  largest %%  90th pct %%\n", "figure", "median");
    for (const char* figure : {"probe_us", "level_probe_us", "warp_ms", "edge_ms"}) {
        const std::vector<Sample>& series = samples[figure];
        const float whole = median(valuesOf(series));
        for (double width : {0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0}) {
            std::vector<float> distances;
            for (float m : windowMedians(series, width, total)) {
                if (!std::isnan(m)) distances.push_back(std::fabs(m - whole) / whole * 100);
            }
            if (distances.size() < 2) continue;
            std::sort(distances.begin(), distances.end());
            const float p90 = distances[static_cast<size_t>(0.9 * (distances.size() - 1))];
            std::printf("%-14s %10.4f  %8.1f  %7zu  %9.2f  %10.2f\n", figure, whole, width, distances.size(),
                        distances.back(), p90);
        }
    }
    // The run window by window: a state that holds for seconds shows as a
    // run of lines, and which of a search's calls it moved.
    constexpr double kSeriesWindowS = 3.0;
    std::map<std::string, std::vector<float>> series;
    for (const auto& [figure, values] : samples) series[figure] = windowMedians(values, kSeriesWindowS, total);
    std::printf("\nmedians of %.0f s windows; [count resets, expansions, read-backs] in us, summed over a search's levels\n",
                kSeriesWindowS);
    std::vector<std::map<int, int>> cpuCounts(series["probe_us"].size());  // per window: CPU -> calls
    for (const Sample& s : samples["cpu"]) {
        if (const size_t w = static_cast<size_t>(s.seconds / kSeriesWindowS); w < cpuCounts.size()) {
            ++cpuCounts[w][static_cast<int>(s.value)];
        }
    }
    for (size_t w = 0; w < series["probe_us"].size(); ++w) {
        const auto most = std::max_element(cpuCounts[w].begin(), cpuCounts[w].end(),
                                           [](const auto& a, const auto& b) { return a.second < b.second; });
        std::printf("%5.0f s  cpu %3d of %zu", w * kSeriesWindowS, most == cpuCounts[w].end() ? -1 : most->first,
                    cpuCounts[w].size());
        std::printf("  core loop %6.1f us  chase hop %5.1f ns  probe %6.2f us  level probe %6.2f us",
                    series["core_loop_us"][w], series["chase_hop_ns"][w], series["probe_us"][w],
                    series["level_probe_us"][w]);
        for (const std::string mapping : kMappings) {
            std::printf("  %s %.4f ms [%5.1f %6.1f %6.1f]", mapping.c_str(), series[mapping + "_ms"][w],
                        series[mapping + "_reset_us"][w], series[mapping + "_expand_us"][w],
                        series[mapping + "_readback_us"][w]);
        }
        std::printf("\n");
    }
    const std::vector<float> probeWindows = windowMedians(samples["probe_us"], 1.0, total);
    const std::vector<float> levelProbeWindows = windowMedians(samples["level_probe_us"], 1.0, total);
    for (const std::string mapping : kMappings) {
        std::vector<float> callProbe, callLevelProbe, callMedian;
        for (const Call& c : calls[mapping]) {
            callProbe.push_back(c.probeUs), callLevelProbe.push_back(c.levelProbeUs), callMedian.push_back(c.medianMs);
        }
        const std::vector<float> searchWindows = windowMedians(samples[mapping + "_ms"], 1.0, total);
        std::printf("%s search against the probe: r = %s over 1 s windows, r = %s call by call; against the level "
                    "probe: r = %s and %s\n",
                    mapping.c_str(), rText(pearson(probeWindows, searchWindows)).c_str(),
                    rText(pearson(callProbe, callMedian)).c_str(), rText(pearson(levelProbeWindows, searchWindows)).c_str(),
                    rText(pearson(callLevelProbe, callMedian)).c_str());
        std::printf("%s search over 1 s windows against the core loop: r = %s; against the chase's hop: r = %s\n",
                    mapping.c_str(), rText(pearson(windowMedians(samples["core_loop_us"], 1.0, total), searchWindows)).c_str(),
                    rText(pearson(windowMedians(samples["chase_hop_ns"], 1.0, total), searchWindows)).c_str());
    }

    if (argc > 2) {
        std::ofstream tsv(argv[2]);
        tsv << "seconds\tfigure\tvalue\n";
        for (const auto& [figure, series] : samples) {
            for (const Sample& s : series) tsv << s.seconds << "\t" << figure << "\t" << s.value << "\n";
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (const int skip = grading::bench::requireDevice("day38_search_drift"); skip != 0) return skip;
    try {
        return drift(argc, argv);
    } catch (const std::exception& e) {  // a CUDA error (CUDA_TRY) or the graph not loading
        std::fprintf(stderr, "day38_search_drift: %s\n", e.what());
        return 1;
    }
}
