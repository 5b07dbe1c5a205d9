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
#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bfs_mappings.h"
#include "device_search.h"
#include "graph.h"
#include "graph_generators.h"
#include "harness/bench.h"
#include "harness/cuda_check.h"

namespace {

constexpr uint64_t kRmatSeed = 38;  // a benchmark, not a grade: a fixed graph is the point
constexpr int kEdgeFactor = 16;

template <class T>
class DeviceArray {
public:
    explicit DeviceArray(size_t count) : count_(count) {
        CUDA_TRY(cudaMalloc(&data_, std::max<size_t>(count, 1) * sizeof(T)));
    }
    ~DeviceArray() { cudaFree(data_); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    T* get() const { return data_; }
    void upload(const std::vector<T>& v) {
        CUDA_TRY(cudaMemcpy(data_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    }
    std::vector<T> download() const {
        std::vector<T> v(count_);
        CUDA_TRY(cudaMemcpy(v.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
        return v;
    }

private:
    T* data_ = nullptr;
    size_t count_;
};

// One graph on the host and the device, with every buffer any mapping needs.
struct Loaded {
    explicit Loaded(const std::string& graphName) : name(graphName) {
        if (name == "word_graph") {
            grading::Expected<grading::Graph> g = grading::loadGraph(DAY38_WORD_GRAPH);
            if (!g) throw std::runtime_error(g.error());
            graph = std::move(g).value();
            source = grading::findVertex(graph, grading::commentValue(graph, "default source"));
        } else {
            graph = grading::rmatGraph(std::stoi(name.substr(4)), kEdgeFactor, kRmatSeed);  // "rmat<scale>"
            source = grading::highestDegreeVertex(graph);
        }
        host = grading::bfsHost(graph, source);
        for (int v : host.order) edgesWalked += graph.degree(v);

        const int n = graph.vertexCount;
        const size_t e = graph.colIndices.size();
        rowOffsets = std::make_unique<DeviceArray<int>>(graph.rowOffsets.size());
        colIndices = std::make_unique<DeviceArray<int>>(e);
        rowOffsets->upload(graph.rowOffsets);
        colIndices->upload(graph.colIndices);
        dist = std::make_unique<DeviceArray<int>>(n);
        // Every correct mapping claims each vertex once: a frontier never holds more than n.
        frontier[0] = std::make_unique<DeviceArray<int>>(n);
        frontier[1] = std::make_unique<DeviceArray<int>>(n);
        nextSize = std::make_unique<DeviceArray<unsigned int>>(1);
        edgeStart = std::make_unique<DeviceArray<int>>(static_cast<size_t>(n) + 1);
        CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, scanBytes, static_cast<int*>(nullptr),
                                               static_cast<int*>(nullptr), n + 1));
        scanStorage = std::make_unique<DeviceArray<unsigned char>>(scanBytes);
        const size_t chunkInts = 2 * day38::deviceChunkCapacity(n, e);
        chunks[0] = std::make_unique<DeviceArray<int>>(chunkInts);
        chunks[1] = std::make_unique<DeviceArray<int>>(chunkInts);
        levelSize = std::make_unique<DeviceArray<unsigned int>>(static_cast<size_t>(n) + 2);
        chunkCount = std::make_unique<DeviceArray<unsigned int>>(static_cast<size_t>(n) + 2);
        outcome = std::make_unique<DeviceArray<int>>(2);
    }

    day38::DeviceCsr csr() const { return {rowOffsets->get(), colIndices->get(), graph.vertexCount}; }

    // The course's loop (the runner's, without its checks): reset, then per
    // level a count reset, one expansion and the count copied back.
    int courseSearch(const std::string& mapping) {
        const int zero = 0;
        CUDA_TRY(cudaMemset(dist->get(), 0xff, static_cast<size_t>(graph.vertexCount) * sizeof(int)));
        CUDA_TRY(cudaMemcpy(dist->get() + source, &zero, sizeof zero, cudaMemcpyHostToDevice));
        CUDA_TRY(cudaMemcpy(frontier[0]->get(), &source, sizeof source, cudaMemcpyHostToDevice));
        unsigned int size = 1;
        int levels = 0;
        for (; size > 0; ++levels) {
            if (levels > graph.vertexCount) throw std::runtime_error(mapping + ": the search ran away");
            const int* in = frontier[levels % 2]->get();
            const day38::LevelOutput out{dist->get(), frontier[(levels + 1) % 2]->get(), nextSize->get()};
            CUDA_TRY(cudaMemset(nextSize->get(), 0, sizeof(unsigned int)));
            const int count = static_cast<int>(size);
            if (mapping == "thread") {
                day38::expandThreadPerVertex(csr(), in, count, levels, out);
            } else if (mapping == "warp") {
                day38::expandWarpPerVertex(csr(), in, count, levels, out);
            } else {
                day38::expandEdgePerThread(csr(), in, count, levels, out,
                                           {edgeStart->get(), scanStorage->get(), scanBytes});
            }
            CUDA_TRY(cudaMemcpy(&size, nextSize->get(), sizeof size, cudaMemcpyDeviceToHost));
            if (size > static_cast<unsigned int>(graph.vertexCount)) throw std::runtime_error(mapping + ": duplicates");
        }
        return levels;
    }

    int deviceSearch(int blocks) {
        const day38::DeviceSearchBuffers b{dist->get(), {chunks[0]->get(), chunks[1]->get()}, levelSize->get(),
                                           chunkCount->get(), outcome->get()};
        const day38::DeviceSearchOutcome o =
            day38::deviceDrivenBfs(csr(), graph.colIndices.size(), source, b, day38::DeviceSearchOptions{blocks});
        if (o.runaway) throw std::runtime_error("device: the search ran away");
        return o.levels;
    }

    std::string name;
    grading::Graph graph;
    int source = 0;
    grading::HostBfs host;
    double edgesWalked = 0;
    std::unique_ptr<DeviceArray<int>> rowOffsets, colIndices, dist, frontier[2], edgeStart, chunks[2], outcome;
    std::unique_ptr<DeviceArray<unsigned int>> nextSize, levelSize, chunkCount;
    std::unique_ptr<DeviceArray<unsigned char>> scanStorage;
    size_t scanBytes = 0;
};

// One graph at a time: the rows of a graph run together (registration
// order), and R-MAT at scale 22 takes 1.5 GiB of host memory.
Loaded& graphNamed(const std::string& name) {
    static std::unique_ptr<Loaded> current;
    if (!current || current->name != name) {
        current.reset();
        current = std::make_unique<Loaded>(name);
        std::printf("%s: %d vertices, %zu adjacency entries, %d levels from vertex %d, %.0f entries walked\n",
                    name.c_str(), current->graph.vertexCount, current->graph.colIndices.size(), current->host.levels(),
                    current->source, current->edgesWalked);
    }
    return *current;
}

using grading::bench::EventTimer;

std::map<std::string, double> warpSeconds;  // per graph, from the warp row

// Skips with a message when the last search's distances or levels are not the host's.
std::string wrongAnswer(const Loaded& g, int levels) {
    if (levels != g.host.levels()) {
        return "levels: got " + std::to_string(levels) + ", want " + std::to_string(g.host.levels());
    }
    const std::vector<int> got = g.dist->download();
    for (int v = 0; v < g.graph.vertexCount; ++v) {
        if (got[v] != g.host.dist[v]) {
            return "vertex " + std::to_string(v) + ": got " + std::to_string(got[v]) + ", want " +
                   std::to_string(g.host.dist[v]);
        }
    }
    return "";
}

void search(benchmark::State& state, const std::string& graphName, const std::string& mapping, int blocks) {
    try {
        Loaded& g = graphNamed(graphName);
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
