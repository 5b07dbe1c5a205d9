// day 38 benchmark: the whole search, timed as the course times it (the
// reset, every level and its round trips between two events), on the shipped
// word graph and on R-MAT graphs of scale 20, 21 and 22 (edge factor 16,
// A = 0.57, B = C = 0.19, fixed seed, searched from the highest-degree
// vertex), per mapping:
//   thread, warp  the course's level loops (course/)
//   edge          the exercise's mapping, the instructor solution
//   device        the device-driven search (solution/device_bfs.cu): one
//                 cooperative launch, a grid barrier per level
// Counters: ms per search; MTEPS = adjacency entries of the reached vertices
// (each undirected edge twice, as every mapping reads it from both ends) /
// time; vs_warp = the warp mapping's time / this time (the warp row runs
// first). Each row checks its last search's distances against the host's.
// device_blocks rows fix the device search's grid on the word graph (0:
// sized from the graph, what the runner does).
//
//   day38_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "harness/bench.h"
#include "loaded_graph.h"

namespace {

using day38::bench::LoadedGraph;
using day38::bench::wrongAnswer;
using grading::bench::EventTimer;

// One graph at a time: the rows of a graph run together (registration
// order), and R-MAT at scale 22 takes 1.5 GiB of host memory.
LoadedGraph& graphNamed(const std::string& name) {
    static std::unique_ptr<LoadedGraph> current;
    if (!current || current->name != name) {
        current.reset();
        current = std::make_unique<LoadedGraph>(name);
        std::printf("%s: %d vertices, %zu adjacency entries, %d levels from vertex %d, %.0f entries walked\n",
                    name.c_str(), current->graph.vertexCount, current->graph.colIndices.size(), current->host.levels(),
                    current->source, current->edgesWalked);
    }
    return *current;
}

std::map<std::string, double> warpSeconds;  // per graph, from the warp row

void search(benchmark::State& state, const std::string& graphName, const std::string& mapping, int blocks) {
    try {
        LoadedGraph& g = graphNamed(graphName);
        const auto once = [&] { return mapping == "device" ? g.deviceSearch(blocks) : g.courseSearch(mapping); };
        once();  // the first launch of each kernel loads its module
        EventTimer ev;
        double total = 0;
        int levels = 0;
        for (auto _ : state) {
            const double s = ev.seconds([&] { levels = once(); });
            state.SetIterationTime(s);
            total += s;
        }
        if (const std::string wrong = wrongAnswer(g, levels); !wrong.empty()) {
            state.SkipWithError((mapping + " on " + graphName + ": " + wrong).c_str());
            return;
        }
        const double perSearch = total / static_cast<double>(state.iterations());
        state.counters["ms"] = perSearch * 1e3;
        state.counters["MTEPS"] = g.edgesWalked / perSearch * 1e-6;
        state.counters["levels"] = levels;
        if (mapping == "warp" && blocks == 0) warpSeconds[graphName] = perSearch;
        if (warpSeconds.count(graphName)) state.counters["vs_warp"] = warpSeconds[graphName] / perSearch;
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    if (const int skip = grading::bench::requireDevice("day38_bench"); skip != 0) return skip;
    // Registration order is run order: warp before the rows compared with it,
    // and one graph's rows together.
    for (const std::string graphName : {"word_graph", "rmat20", "rmat21", "rmat22"}) {
        const double minTime = graphName == "word_graph" ? 0.2 : 0.1;
        for (const std::string mapping : {"warp", "thread", "edge", "device"}) {
            benchmark::RegisterBenchmark(("bfs/" + graphName + "/" + mapping).c_str(),
                                         [=](benchmark::State& s) { search(s, graphName, mapping, 0); })
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond)
                ->MinTime(minTime);
        }
        if (graphName != "word_graph") continue;
        for (int blocks : {16, 66, 264, 528}) {
            benchmark::RegisterBenchmark(("bfs/word_graph/device_blocks:" + std::to_string(blocks)).c_str(),
                                         [=](benchmark::State& s) { search(s, graphName, "device", blocks); })
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond)
                ->MinTime(minTime);
        }
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
