#pragma once
// One graph on the host and the device for day 38's measuring programs (the
// benchmark, the search drift): the shipped word graph or an R-MAT graph,
// every buffer any mapping needs, the course's level loop and the
// device-driven search, and the check of a search's answer against the host's.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bfs_mappings.h"
#include "device_search.h"
#include "graph.h"
#include "graph_generators.h"
#include "harness/cuda_check.h"

namespace day38::bench {

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
struct LoadedGraph {
    explicit LoadedGraph(const std::string& graphName) : name(graphName) {
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

    // Host seconds a search spent in each call of its levels, summed: the
    // count's reset, the expansion (for the edge mapping its scan and the
    // scan's total read back too) and the count's read-back, which waits for
    // the level's kernels.
    struct LevelCallSeconds {
        double reset = 0, expand = 0, readBack = 0;
    };

    // The course's loop (the runner's, without its checks): reset, then per
    // level a count reset, one expansion and the count copied back. With
    // `calls`, each level's calls are timed on the host as well.
    int courseSearch(const std::string& mapping, LevelCallSeconds* calls = nullptr) {
        const auto timed = [calls](double LevelCallSeconds::*part, auto&& call) {
            if (calls == nullptr) return call();
            const auto from = std::chrono::steady_clock::now();
            call();
            calls->*part += std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
        };
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
            timed(&LevelCallSeconds::reset, [&] { CUDA_TRY(cudaMemset(nextSize->get(), 0, sizeof(unsigned int))); });
            const int count = static_cast<int>(size);
            timed(&LevelCallSeconds::expand, [&] {
                if (mapping == "thread") {
                    day38::expandThreadPerVertex(csr(), in, count, levels, out);
                } else if (mapping == "warp") {
                    day38::expandWarpPerVertex(csr(), in, count, levels, out);
                } else {
                    day38::expandEdgePerThread(csr(), in, count, levels, out,
                                               {edgeStart->get(), scanStorage->get(), scanBytes});
                }
            });
            timed(&LevelCallSeconds::readBack,
                  [&] { CUDA_TRY(cudaMemcpy(&size, nextSize->get(), sizeof size, cudaMemcpyDeviceToHost)); });
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

// Empty when the last search's levels and distances are the host's; else
// the first that is not, with what it got and what it wanted.
inline std::string wrongAnswer(const LoadedGraph& g, int levels) {
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

}  // namespace day38::bench
