// The day 38 runner: the course's bfs.cu as subcommands, linked with one set
// of mappings (reference, submission or a planted bug). It reports what the
// kernels produced; the grading process decides whether that is right.
//
//   bfs  --graph FILE --source V --mapping thread|warp|edge [--decoy-source D]
//        [--time-runs K]
//        result: dist i32[V], level_sizes i64[], levels i64, and when timed
//        bfs_ms f32[K]; frontier_overflow / runaway (str) when the search
//        had to stop early.
//   walk --graph FILE --mapping M --repeats R --in INPUT [--time-runs K]
//        INPUT: frontier i32[] (levels back to back), level_start i32[L + 1],
//        time_levels i32[] (which of them to time).
//        result: checksums u32[] (parallel to frontier), walk_ms f32[] (the
//        median of each timed level, in time_levels order).
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bfs_mappings.h"
#include "harness/cuda_check.h"
#include "harness/event_timer.h"
#include "harness/graph.h"
#include "harness/guarded_buffer.h"
#include "harness/runner_main.h"

namespace {

using grading::GuardedBuffer;
using grading::InputError;
using grading::Record;
using grading::RunnerArgs;

constexpr int kWarmupRuns = 3;

enum class Mapping { Thread, Warp, Edge };

Mapping parseMapping(const std::string& name) {
    if (name == "thread") return Mapping::Thread;
    if (name == "warp") return Mapping::Warp;
    if (name == "edge") return Mapping::Edge;
    throw InputError("--mapping wants thread, warp or edge, got \"" + name + "\"");
}

const char* expandName(Mapping m) {
    switch (m) {
        case Mapping::Thread: return "expandThreadPerVertex (thread mapping)";
        case Mapping::Warp: return "expandWarpPerVertex (warp mapping)";
        case Mapping::Edge: return "expandEdgePerThread (edge mapping)";
    }
    return "";
}

const char* walkName(Mapping m) {
    switch (m) {
        case Mapping::Thread: return "walkThreadPerVertex (thread mapping)";
        case Mapping::Warp: return "walkWarpPerVertex (warp mapping)";
        case Mapping::Edge: return "walkEdgePerThread (edge mapping)";
    }
    return "";
}

grading::Graph loadGraphArg(const RunnerArgs& args) {
    grading::Expected<grading::Graph> g = grading::loadGraph(args.text("graph"));
    if (!g) throw InputError(g.error());
    return std::move(g).value();
}

// The graph and every buffer the mappings may touch, each with guard words.
struct DeviceState {
    explicit DeviceState(const grading::Graph& g)
        : graph(g),
          vertexCount(g.vertexCount),
          frontierCapacity(static_cast<size_t>(g.vertexCount) + g.colIndices.size()),
          rowOffsets("rowOffsets", g.rowOffsets.size()),
          colIndices("colIndices", g.colIndices.size()),
          dist("dist", g.vertexCount),
          frontierA("frontier", frontierCapacity),
          frontierB("nextFrontier", frontierCapacity),
          nextSize("nextSize", 1),
          edgeStart("edgeStart", static_cast<size_t>(g.vertexCount) + 1) {
        rowOffsets.upload(g.rowOffsets);
        colIndices.upload(g.colIndices);
        size_t bytes = 0;
        CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<int*>(nullptr),
                                               static_cast<int*>(nullptr), g.vertexCount + 1));
        scanStorage = std::make_unique<GuardedBuffer<unsigned char>>("scanStorage", std::max<size_t>(bytes, 1));
        for (const grading::GuardedBytes* b :
             std::initializer_list<const grading::GuardedBytes*>{&rowOffsets, &colIndices, &dist, &frontierA,
                                                                 &frontierB, &nextSize, &edgeStart, scanStorage.get()}) {
            guards.add(*b);
        }
    }

    day38::DeviceCsr csr() const { return {rowOffsets.data(), colIndices.data(), vertexCount}; }
    day38::EdgeScratch scratch() const {
        return {edgeStart.data(), scanStorage->data(), scanStorage->count()};
    }

    const grading::Graph& graph;  // the host copy the inputs must keep matching
    int vertexCount;
    // A level appends at most once per edge it walks, so a frontier never
    // outgrows V + 2E, even one a buggy claim fills with duplicates.
    size_t frontierCapacity;
    GuardedBuffer<int> rowOffsets;
    GuardedBuffer<int> colIndices;
    GuardedBuffer<int> dist;
    GuardedBuffer<int> frontierA;
    GuardedBuffer<int> frontierB;
    GuardedBuffer<unsigned int> nextSize;
    GuardedBuffer<int> edgeStart;
    std::unique_ptr<GuardedBuffer<unsigned char>> scanStorage;
    grading::GuardSet guards;
};

void expand(DeviceState& d, Mapping m, const int* frontier, int frontierSize, int level,
            int* nextFrontier) {
    const day38::LevelOutput out{d.dist.data(), nextFrontier, d.nextSize.data()};
    switch (m) {
        case Mapping::Thread: day38::expandThreadPerVertex(d.csr(), frontier, frontierSize, level, out); break;
        case Mapping::Warp: day38::expandWarpPerVertex(d.csr(), frontier, frontierSize, level, out); break;
        case Mapping::Edge:
            day38::expandEdgePerThread(d.csr(), frontier, frontierSize, level, out, d.scratch());
            break;
    }
}

struct SearchResult {
    std::vector<int64_t> levelSizes;
    std::string stoppedBecause;  // empty when the frontier emptied normally
};

// After one checked expansion: errors, work left on a side stream, inputs
// written, guard words. Returns the level's append count.
unsigned int checkExpansion(DeviceState& d, const GuardedBuffer<int>& frontier,
                            const std::vector<int>& frontierBefore, const std::string& where) {
    unsigned int seenByDefaultStream = 0;
    unsigned int produced = 0;
    grading::settleDefaultStream(where);
    CUDA_TRY(cudaMemcpy(&seenByDefaultStream, d.nextSize.data(), sizeof(unsigned int), cudaMemcpyDeviceToHost));
    grading::checkLaunch(where);
    CUDA_TRY(cudaMemcpy(&produced, d.nextSize.data(), sizeof(unsigned int), cudaMemcpyDeviceToHost));
    if (seenByDefaultStream != produced) {
        throw grading::ContractViolation(
            where + " left work running on another stream: the level's count read " +
            std::to_string(seenByDefaultStream) + " once the default stream was done and " + std::to_string(produced) +
            " once the whole device was; launch on the default stream or synchronize before returning");
    }
    grading::expectUnchanged(d.rowOffsets, d.graph.rowOffsets, where);
    grading::expectUnchanged(d.colIndices, d.graph.colIndices, where);
    grading::expectUnchanged(frontier, frontierBefore, where);
    return produced;
}

// The course's level loop: one launch and one count round trip per level.
// `checked` adds what grading needs and timing must not pay for: poisoned
// outputs and, after every level, the checks of checkExpansion.
SearchResult runBfs(DeviceState& d, Mapping m, int source, bool checked) {
    SearchResult r;
    const int zero = 0;
    CUDA_TRY(cudaMemset(d.dist.data(), 0xff, static_cast<size_t>(d.vertexCount) * sizeof(int)));
    CUDA_TRY(cudaMemcpy(d.dist.data() + source, &zero, sizeof(int), cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(d.frontierA.data(), &source, sizeof(int), cudaMemcpyHostToDevice));

    // Live-end marks belong to the level that set them: a new search (or a
    // timed one, which does not poison) must not be checked against them.
    d.frontierA.forgetLive();
    d.frontierB.forgetLive();
    d.edgeStart.forgetLive();
    GuardedBuffer<int>* frontier = &d.frontierA;
    GuardedBuffer<int>* next = &d.frontierB;
    int frontierSize = 1;
    for (int level = 0; frontierSize > 0; ++level) {
        // A correct search has at most one level per vertex.
        if (level > d.vertexCount) {
            r.stoppedBecause = "runaway: the search was still going after " + std::to_string(level) +
                               " levels, more than the graph has vertices";
            break;
        }
        r.levelSizes.push_back(frontierSize);
        CUDA_TRY(cudaMemset(d.nextSize.data(), 0, sizeof(unsigned int)));
        const std::string where = std::string(expandName(m)) + " at level " + std::to_string(level);
        std::vector<int> frontierBefore;
        if (checked) {
            next->poison();
            d.edgeStart.poison();
            frontierBefore = frontier->download(frontierSize);
            grading::breadcrumb(where);
        }
        expand(d, m, frontier->data(), frontierSize, level, next->data());
        unsigned int produced = 0;
        if (checked) {
            produced = checkExpansion(d, *frontier, frontierBefore, where);
            next->markLive(produced);
            if (m == Mapping::Edge) d.edgeStart.markLive(static_cast<size_t>(frontierSize) + 1);
            if (produced > d.frontierCapacity) {
                // Only duplicates can do this, and the writes ran past the
                // frontier's end: report it as the frontier's problem.
                r.levelSizes.push_back(produced);
                r.stoppedBecause = "frontier_overflow: level " + std::to_string(level) + " appended " +
                                   std::to_string(produced) + " entries into a frontier of " +
                                   std::to_string(d.frontierCapacity);
                break;
            }
            d.guards.check(where);
        } else {
            CUDA_TRY(cudaMemcpy(&produced, d.nextSize.data(), sizeof(unsigned int), cudaMemcpyDeviceToHost));
        }
        frontierSize = static_cast<int>(produced);
        std::swap(frontier, next);
    }
    return r;
}

void bfsCommand(const RunnerArgs& args, Record& result) {
    const grading::Graph g = loadGraphArg(args);
    const int source = args.integer("source");
    if (source < 0 || source >= g.vertexCount) {
        throw InputError("--source " + std::to_string(source) + " is not a vertex of " + args.text("graph"));
    }
    const Mapping m = parseMapping(args.text("mapping"));
    DeviceState d(g);

    // A search from another source first, through the same mapping: a
    // submission that replays what its first call computed fails the real one.
    if (args.has("decoy-source")) {
        const int decoy = args.integer("decoy-source");
        if (decoy < 0 || decoy >= g.vertexCount) throw InputError("--decoy-source is not a vertex");
        runBfs(d, m, decoy, true);
    }
    const SearchResult search = runBfs(d, m, source, true);
    result.putInts("dist", d.dist.download());
    result.putInt64s("level_sizes", search.levelSizes);
    result.putInt("levels", static_cast<int64_t>(search.levelSizes.size()));
    if (!search.stoppedBecause.empty()) {
        result.putText("stopped", search.stoppedBecause);
        return;  // a broken search is not worth timing
    }

    const int timedRuns = args.integer("time-runs", 0);
    if (timedRuns > 0) {
        grading::breadcrumb(std::string("timing the whole search with ") + expandName(m));
        const grading::TimingStats t = grading::timeRuns([&] { runBfs(d, m, source, false); },
                                                         expandName(m), kWarmupRuns, timedRuns);
        result.putFloats("bfs_ms", t.samplesMs);
        d.guards.check(std::string("timing ") + expandName(m));
    }
}

void walkCommand(const RunnerArgs& args, Record& result) {
    const grading::Graph g = loadGraphArg(args);
    const Mapping m = parseMapping(args.text("mapping"));
    const int repeats = args.integer("repeats", day38::kWalkRepeats);
    const auto frontiers = args.input().ints("frontier");
    const auto levelStart = args.input().ints("level_start");
    if (!frontiers || !levelStart) throw InputError("walk wants frontier and level_start in --in");
    std::vector<int32_t> timeLevels;
    if (args.input().has("time_levels")) timeLevels = args.input().ints("time_levels").value();
    for (int v : *frontiers) {
        if (v < 0 || v >= g.vertexCount) throw InputError("frontier holds " + std::to_string(v) + ", not a vertex");
    }
    const int timedRuns = args.integer("time-runs", 0);
    DeviceState d(g);

    std::vector<uint32_t> checksums;
    std::vector<float> walkMs;
    for (size_t level = 0; level + 1 < levelStart->size(); ++level) {
        const int begin = (*levelStart)[level];
        const int size = (*levelStart)[level + 1] - begin;
        if (begin < 0 || size < 0 || begin + size > static_cast<int>(frontiers->size())) {
            throw InputError("level_start is not a slicing of frontier");
        }
        // Buffers sized exactly to this level, so the guards sit right after it.
        GuardedBuffer<int> frontier("frontier", size);
        GuardedBuffer<unsigned int> out("walkOut", size);
        frontier.upload(frontiers->data() + begin, size);
        out.poison();
        d.edgeStart.poison();
        grading::GuardSet guards = d.guards;
        guards.add(frontier);
        guards.add(out);

        const std::string where = std::string(walkName(m)) + " on level " + std::to_string(level);
        const auto launch = [&] {
            switch (m) {
                case Mapping::Thread:
                    day38::launchWalkThreadPerVertex(d.csr(), frontier.data(), size, repeats, out.data());
                    break;
                case Mapping::Warp:
                    day38::launchWalkWarpPerVertex(d.csr(), frontier.data(), size, repeats, out.data());
                    break;
                case Mapping::Edge:
                    day38::launchWalkEdgePerThread(d.csr(), frontier.data(), size, repeats, out.data(),
                                                   d.scratch());
                    break;
            }
        };
        grading::breadcrumb(where);
        launch();
        grading::checkLaunch(where);
        if (m == Mapping::Edge) d.edgeStart.markLive(static_cast<size_t>(size) + 1);
        guards.check(where);
        const std::vector<unsigned int> got = out.download();
        checksums.insert(checksums.end(), got.begin(), got.end());

        if (timedRuns > 0 && std::find(timeLevels.begin(), timeLevels.end(), static_cast<int>(level)) != timeLevels.end()) {
            grading::breadcrumb("timing " + where);
            walkMs.push_back(grading::timeRuns(launch, where, kWarmupRuns, timedRuns).medianMs);
            guards.check("timing " + where);
        }
    }
    result.putUints("checksums", checksums);
    if (timedRuns > 0) result.putFloats("walk_ms", walkMs);
}

}  // namespace

int main(int argc, char** argv) {
    return grading::runnerMain(argc, argv, {{"bfs", bfsCommand}, {"walk", walkCommand}});
}
