// The day 38 runner: the course's bfs.cu as subcommands (protocol.h), linked
// with the course's thread and warp mappings and one edge mapping (the
// solution, the submission, the stub or a planted bug), and, in the
// reference runner only, the instructor's device-driven search (mapping
// "device", whole searches only). It reports what the kernels produced; the
// grader decides whether that is right.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bfs_mappings.h"
#include "clocked_walk.h"
#include "device_search.h"
#include "harness/cuda_check.h"
#include "harness/event_timer.h"
#include "harness/guarded_buffer.h"
#include "harness/pinned_host.h"
#include "harness/runner_main.h"
#include "harness/timed_run_check.h"
#include "harness/work_left_check.h"
#include "protocol.h"

namespace {

using grading::GuardedBuffer;
using grading::InputError;
namespace proto = day38::protocol;

constexpr int kWarmupRuns = 3;

enum class Mapping { Thread, Warp, Edge, Device };

Mapping parseMapping(const std::string& name) {
    if (name == "thread") return Mapping::Thread;
    if (name == "warp") return Mapping::Warp;
    if (name == "edge") return Mapping::Edge;
    if (name == "device") return Mapping::Device;
    throw std::logic_error("mapping \"" + name + "\" passed the request's limits (protocol.h: kSearchMappings)");
}

// The device-driven search has no level or walk kernel of its own to call
// (kLevelMappings leaves it out).
Mapping levelMapping(const std::string& name) {
    const Mapping m = parseMapping(name);
    if (m == Mapping::Device) throw std::logic_error("mapping device passed a level request's limits");
    return m;
}

const char* expandName(Mapping m) {
    switch (m) {
        case Mapping::Thread: return "expandThreadPerVertex (thread mapping)";
        case Mapping::Warp: return "expandWarpPerVertex (warp mapping)";
        case Mapping::Edge: return "expandEdgePerThread (edge mapping)";
        case Mapping::Device: return "deviceDrivenBfs (device-driven search)";
    }
    return "";
}

const char* walkName(Mapping m) {
    switch (m) {
        case Mapping::Thread: return "walkThreadPerVertex (thread mapping)";
        case Mapping::Warp: return "walkWarpPerVertex (warp mapping)";
        case Mapping::Edge: return "walkEdgePerThread (edge mapping)";
        case Mapping::Device: break;
    }
    return "";
}

// The CSR arrays as sent, checked before any kernel reads them.
struct HostCsr {
    std::vector<int> rowOffsets;
    std::vector<int> colIndices;
    int vertexCount = 0;
};

HostCsr checkedCsr(const std::vector<int32_t>& rowOffsets, const std::vector<int32_t>& colIndices) {
    if (rowOffsets.empty() || rowOffsets.front() != 0 ||
        static_cast<size_t>(rowOffsets.back()) != colIndices.size()) {
        throw InputError("row_offsets is not a CSR offset array over col_indices");
    }
    for (size_t v = 0; v + 1 < rowOffsets.size(); ++v) {
        if (rowOffsets[v + 1] < rowOffsets[v]) throw InputError("row_offsets decreases at " + std::to_string(v));
    }
    const int vertices = static_cast<int>(rowOffsets.size()) - 1;
    for (int u : colIndices) {
        if (u < 0 || u >= vertices) throw InputError("col_indices holds " + std::to_string(u) + ", not a vertex");
    }
    return {rowOffsets, colIndices, vertices};
}

void checkVertices(const std::vector<int32_t>& list, int vertices, const char* what) {
    for (int v : list) {
        if (v < 0 || v >= vertices) throw InputError(std::string(what) + " holds " + std::to_string(v) + ", not a vertex");
    }
}

// The graph and every buffer the mappings may touch, each with guard words.
struct DeviceState {
    explicit DeviceState(const HostCsr& g)
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
        inputs.keep(rowOffsets, rowOffsets.count());
        inputs.keep(colIndices, colIndices.count());
    }

    day38::DeviceCsr csr() const { return {rowOffsets.data(), colIndices.data(), vertexCount}; }
    day38::EdgeScratch scratch() const { return {edgeStart.data(), scanStorage->data(), scanStorage->count()}; }

    const HostCsr& graph;  // as sent (InputWatch keeps its device copy for the checks)
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
    // Where a timed level's count lands: pinned, so the round trip is one
    // copy over the link with no staging (faster and steadier than pageable).
    grading::PinnedHost<unsigned int> nextSizeOnHost{1};
    GuardedBuffer<int> edgeStart;
    std::unique_ptr<GuardedBuffer<unsigned char>> scanStorage;
    grading::GuardSet guards;
    // The graph as sent, kept on the device once, and each checked level's
    // frontier as handed over: compared there after every level.
    grading::InputWatch inputs;
    // A checked level's count, read once the default stream is done and again
    // once the whole device is.
    grading::WorkLeftCheck<unsigned int> levelCountSettled{"the level's count"};

    // The device-driven search's own buffers, made on its first use.
    struct DeviceDriven {
        explicit DeviceDriven(const HostCsr& g)
            : chunkA("chunksA", 2 * day38::deviceChunkCapacity(g.vertexCount, g.colIndices.size())),
              chunkB("chunksB", 2 * day38::deviceChunkCapacity(g.vertexCount, g.colIndices.size())),
              levelSize("levelSize", static_cast<size_t>(g.vertexCount) + 2),
              chunkCount("chunkCount", static_cast<size_t>(g.vertexCount) + 2),
              outcome("outcome", 2) {}
        GuardedBuffer<int> chunkA, chunkB;
        GuardedBuffer<unsigned int> levelSize, chunkCount;
        GuardedBuffer<int> outcome;
    };
    std::unique_ptr<DeviceDriven> deviceDriven;

    day38::DeviceSearchBuffers deviceBuffers() {
        if (!deviceDriven) {
            deviceDriven = std::make_unique<DeviceDriven>(graph);
            for (const grading::GuardedBytes* b : std::initializer_list<const grading::GuardedBytes*>{
                     &deviceDriven->chunkA, &deviceDriven->chunkB, &deviceDriven->levelSize, &deviceDriven->chunkCount,
                     &deviceDriven->outcome}) {
                guards.add(*b);
            }
        }
        DeviceDriven& s = *deviceDriven;
        return {dist.data(), {s.chunkA.data(), s.chunkB.data()}, s.levelSize.data(), s.chunkCount.data(),
                s.outcome.data()};
    }
};

void expand(DeviceState& d, Mapping m, const int* frontier, int frontierSize, int level, int* nextFrontier) {
    const day38::LevelOutput out{d.dist.data(), nextFrontier, d.nextSize.data()};
    switch (m) {
        case Mapping::Thread: day38::expandThreadPerVertex(d.csr(), frontier, frontierSize, level, out); break;
        case Mapping::Warp: day38::expandWarpPerVertex(d.csr(), frontier, frontierSize, level, out); break;
        case Mapping::Edge: day38::expandEdgePerThread(d.csr(), frontier, frontierSize, level, out, d.scratch()); break;
        case Mapping::Device: throw InputError("mapping device has no single-level expansion");
    }
}

// How a search is checked: as it is timed (not at all); each level waited
// for and checked (Strict); each level's guard scans and input compares
// queued behind it and read once, at the search's end (Queued,
// queuedSearchEnd), which waits twice a level where Strict waits six
// times: for the level's count once the default stream is done and once the
// whole device is (the course's own round trip, and the check for work left
// on another stream, both naming the level, as errors do). A search that
// fails Queued is asked again Strict (BfsRequest::strict), whose message
// names the level.
enum class Checks { None, Strict, Queued };

// After one checked expansion: errors, work left on a side stream, inputs
// written (Strict: all waited for; Queued: the compares queued). Returns
// the level's append count.
unsigned int checkExpansion(DeviceState& d, const std::string& where, Checks checks) {
    if (checks == Checks::Strict) grading::settleDefaultStream(where);
    d.levelCountSettled.enqueueRead(d.nextSize.data(), where);
    if (checks == Checks::Queued) d.inputs.enqueueCheck();  // the graph and the level's frontier
    grading::checkLaunch(where);
    const unsigned int produced = d.levelCountSettled.settled(d.nextSize.data(), where);
    if (checks == Checks::Strict) d.inputs.check(where);  // the graph and the level's frontier
    return produced;
}

// One checked level from `frontier` (frontierSize live entries) into `next`:
// `next` and the scratch poisoned first, every check of checkExpansion and
// the guard words after. Returns the append count; throws when the appends
// overran the frontier.
unsigned int checkedLevel(DeviceState& d, Mapping m, GuardedBuffer<int>& frontier, int frontierSize, int level,
                          GuardedBuffer<int>& next, Checks checks) {
    CUDA_TRY(cudaMemset(d.nextSize.data(), 0, sizeof(unsigned int)));
    const std::string where = std::string(expandName(m)) + " at level " + std::to_string(level);
    next.poison();
    d.edgeStart.poison();
    if (checks == Checks::Queued) d.inputs.keepQueued(frontier, static_cast<size_t>(frontierSize));
    else d.inputs.keep(frontier, static_cast<size_t>(frontierSize));
    grading::breadcrumb(where);
    expand(d, m, frontier.data(), frontierSize, level, next.data());
    const unsigned int produced = checkExpansion(d, where, checks);
    d.inputs.release(frontier);  // the next level writes here
    next.markLive(produced);
    if (m == Mapping::Edge) d.edgeStart.markLive(static_cast<size_t>(frontierSize) + 1);
    if (produced <= d.frontierCapacity) {
        if (checks == Checks::Queued) d.guards.enqueueAnotherScan();
        else d.guards.check(where);
    }
    return produced;
}

// What a queued search's scans and compares saw, once they are done.
void queuedSearchEnd(DeviceState& d, Mapping m, int source) {
    const std::string where = std::string(expandName(m)) + ", the search from vertex " + std::to_string(source) +
                              " (its checks read at its end)";
    grading::checkLaunch(where);
    d.guards.throwIfDamaged(where);
    d.inputs.throwIfChangedQueued(where);
}

struct Search {
    std::vector<int64_t> levelSizes;
    std::string stopped;  // empty when the frontier emptied normally
};

// The device-driven search: every level in one call. Checked, its lists
// start poisoned and the checks of a level run once, after the whole search;
// the level sizes come back from the device's own count per level.
Search runDeviceSearch(DeviceState& d, int source, bool checked) {
    const std::string where = expandName(Mapping::Device);
    const day38::DeviceSearchBuffers buffers = d.deviceBuffers();
    if (checked) {
        d.deviceDriven->chunkA.poison();
        d.deviceDriven->chunkB.poison();
        grading::breadcrumb(where);
    }
    const day38::DeviceSearchOutcome outcome = day38::deviceDrivenBfs(d.csr(), d.graph.colIndices.size(), source, buffers);
    Search r;
    if (checked) {
        grading::checkLaunch(where);
        d.inputs.check(where);  // the graph, as every checked level's is
        d.guards.check(where);
    }
    if (outcome.runaway) {
        r.stopped = "runaway: the search was still going after " + std::to_string(outcome.levels) +
                    " levels, more than the graph has vertices";
    } else if (outcome.levels < 1 || outcome.levels > d.vertexCount) {
        r.stopped = "the search reported " + std::to_string(outcome.levels) + " levels";
    } else if (checked) {
        const std::vector<unsigned int> sizes = d.deviceDriven->levelSize.download(outcome.levels);
        r.levelSizes.assign(sizes.begin(), sizes.end());
    }
    return r;
}

// The course's level loop: one launch and one count round trip per level.
// Checks add what grading needs and timing must not pay for: poisoned
// outputs and, after every level, the checks of checkedLevel.
Search runBfs(DeviceState& d, Mapping m, int source, Checks checks) {
    const bool checked = checks != Checks::None;
    if (m == Mapping::Device) return runDeviceSearch(d, source, checked);
    Search r;
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
    if (checks == Checks::Queued) {
        d.inputs.clearQueued();
        d.guards.enqueueScan();
    }
    int frontierSize = 1;
    for (int level = 0; frontierSize > 0; ++level) {
        // A correct search has at most one level per vertex.
        if (level > d.vertexCount) {
            r.stopped = "runaway: the search was still going after " + std::to_string(level) +
                        " levels, more than the graph has vertices";
            break;
        }
        r.levelSizes.push_back(frontierSize);
        unsigned int produced = 0;
        if (checked) {
            grading::lendGpuToMeasurements();
            produced = checkedLevel(d, m, *frontier, frontierSize, level, *next, checks);
            if (produced > d.frontierCapacity) {
                // Only duplicates can do this, and the writes ran past the
                // frontier's end: report it as the frontier's problem.
                r.levelSizes.push_back(produced);
                r.stopped = "frontier_overflow: level " + std::to_string(level) + " appended " +
                            std::to_string(produced) + " entries into a frontier of " +
                            std::to_string(d.frontierCapacity);
                break;
            }
        } else {
            CUDA_TRY(cudaMemset(d.nextSize.data(), 0, sizeof(unsigned int)));
            expand(d, m, frontier->data(), frontierSize, level, next->data());
            CUDA_TRY(cudaMemcpyAsync(d.nextSizeOnHost.data(), d.nextSize.data(), sizeof(unsigned int),
                                     cudaMemcpyDeviceToHost, cudaStreamLegacy));
            CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
            produced = d.nextSizeOnHost[0];
            if (produced > d.frontierCapacity) {
                r.stopped = "frontier_overflow while timing";
                break;
            }
        }
        frontierSize = static_cast<int>(produced);
        std::swap(frontier, next);
    }
    if (checks == Checks::Queued) queuedSearchEnd(d, m, source);
    return r;
}

proto::BfsResult bfs(const proto::BfsRequest& req) {
    const HostCsr g = checkedCsr(req.rowOffsets, req.colIndices);
    const Mapping m = parseMapping(req.mapping);
    checkVertices({req.source}, g.vertexCount, "source");
    if (req.decoySource) checkVertices({*req.decoySource}, g.vertexCount, "decoy_source");
    DeviceState d(g);

    proto::BfsResult result;
    const Checks checks = req.strict != 0 ? Checks::Strict : Checks::Queued;
    if (req.decoySource) runBfs(d, m, *req.decoySource, checks);
    const Search search = runBfs(d, m, req.source, checks);
    result.dist = d.dist.download();
    result.levelSizes = search.levelSizes;
    result.stopped = search.stopped;
    if (!search.stopped.empty() || req.timedRuns == 0) return result;  // a broken search is not worth timing

    std::vector<int32_t> sources = req.timedSources;
    if (sources.empty()) sources.assign(static_cast<size_t>(req.timedRuns), req.source);
    if (sources.size() != static_cast<size_t>(req.timedRuns)) throw InputError("timed_sources wants one source a timed run");
    checkVertices(sources, g.vertexCount, "timed_sources");
    // Every timed search has buffers of its own, the graph's included, as
    // the checked search has; the warm-ups share the last set, and search
    // from the first timed source. Each search's distances are kept on the
    // device outside its events (checked with run 0's guards): timed work is
    // graded work, every run of it.
    std::vector<std::unique_ptr<DeviceState>> runs;
    for (int i = 0; i <= req.timedRuns; ++i) {
        runs.push_back(std::make_unique<DeviceState>(g));
        if (m == Mapping::Device) runs.back()->deviceBuffers();  // allocated here, not inside a timed run
    }
    const size_t vertices = static_cast<size_t>(g.vertexCount);
    GuardedBuffer<int> kept("the timed searches' distances", vertices * sources.size());
    runs.front()->guards.add(kept);
    int run = req.timedRuns;  // the warm-ups' set until the first timed run
    const std::string timing = std::string("timing the whole search with ") + expandName(m);
    grading::TimedRunHooks hooks;
    hooks.before = [&](int i) { run = i; };
    // A breadcrumb after each run, as the checked search leaves one a level.
    hooks.after = [&](int i) {
        CUDA_TRY(cudaMemcpyAsync(kept.data() + static_cast<size_t>(i) * vertices, runs[static_cast<size_t>(i)]->dist.data(),
                                 vertices * sizeof(int), cudaMemcpyDeviceToDevice, cudaStreamLegacy));
        grading::breadcrumb(timing);
    };
    hooks.afterWarmup = [&] { grading::breadcrumb(timing); };
    grading::breadcrumb(timing);
    const auto timedSearch = [&] {
        runBfs(*runs[static_cast<size_t>(run)], m, sources[run < req.timedRuns ? static_cast<size_t>(run) : 0],
               Checks::None);
    };
    const grading::TimingStats t = grading::timeRuns(timedSearch, expandName(m), kWarmupRuns, req.timedRuns, nullptr, hooks);
    result.bfsMs = t.samplesMs;
    for (const auto& r : runs) {
        r->guards.check(std::string("timing ") + expandName(m));
        r->inputs.check(timing);  // its graph as sent
    }
    result.timedDist = kept.download();
    return result;
}

void checkExpansionInput(const std::vector<int32_t>& dist, const std::vector<int32_t>& frontier, int vertices,
                         const std::string& what) {
    checkVertices(frontier, vertices, (what + "frontier").c_str());
    if (dist.size() != static_cast<size_t>(vertices)) throw InputError(what + "dist wants one entry per vertex");
    if (frontier.empty() || frontier.size() > static_cast<size_t>(vertices)) {
        throw InputError(what + "frontier wants 1 to V entries");
    }
}

// One checked level from `frontier` over `dist`, the frontier buffer poisoned
// before it is filled, so its live end is checked against nothing an earlier
// expansion left there. Returns the append count.
unsigned int expandFrom(DeviceState& d, Mapping m, const std::vector<int32_t>& dist,
                        const std::vector<int32_t>& frontier, int level) {
    d.dist.upload(dist);
    d.frontierA.poison();
    d.frontierA.upload(frontier);
    d.frontierA.markLive(frontier.size());
    return checkedLevel(d, m, d.frontierA, static_cast<int>(frontier.size()), level, d.frontierB, Checks::Strict);
}

proto::ExpandResult expandOne(const proto::ExpandRequest& req) {
    const HostCsr g = checkedCsr(req.rowOffsets, req.colIndices);
    const Mapping m = levelMapping(req.mapping);
    checkExpansionInput(req.dist, req.frontier, g.vertexCount, "");
    const bool decoy = !req.decoyFrontier.empty();
    if (decoy) checkExpansionInput(req.decoyDist, req.decoyFrontier, g.vertexCount, "decoy_");
    DeviceState d(g);
    // The decoy first, through the same buffers; only its checks count.
    if (decoy && expandFrom(d, m, req.decoyDist, req.decoyFrontier, req.decoyLevel) > d.frontierCapacity) {
        d.guards.check(std::string(expandName(m)) + " at level " + std::to_string(req.decoyLevel));
    }
    const unsigned int produced = expandFrom(d, m, req.dist, req.frontier, req.level);
    proto::ExpandResult result;
    result.dist = d.dist.download();
    result.next = d.frontierB.download(std::min<size_t>(produced, d.frontierCapacity));
    return result;
}

void checkSlicing(const std::vector<int32_t>& start, const std::vector<int32_t>& frontiers) {
    if (start.empty() || start.front() != 0 || static_cast<size_t>(start.back()) != frontiers.size() ||
        !std::is_sorted(start.begin(), start.end())) {
        throw InputError("frontier_start is not a slicing of frontiers");
    }
}

// One walk of `size` vertices from `frontier` into `out` with mapping m.
void launchWalk(Mapping m, const DeviceState& d, const int* frontier, int size, int repeats, unsigned int* out) {
    switch (m) {
        case Mapping::Thread: day38::launchWalkThreadPerVertex(d.csr(), frontier, size, repeats, out); break;
        case Mapping::Warp: day38::launchWalkWarpPerVertex(d.csr(), frontier, size, repeats, out); break;
        case Mapping::Edge: day38::launchWalkEdgePerThread(d.csr(), frontier, size, repeats, out, d.scratch()); break;
        case Mapping::Device: break;  // refused by levelMapping
    }
}

__global__ void relabelNeighbours(const int* given, int* colIndices, size_t entries, day38::Relabel r, int vertices) {
    for (size_t e = blockIdx.x * size_t{blockDim.x} + threadIdx.x; e < entries; e += size_t{gridDim.x} * blockDim.x) {
        colIndices[e] = day38::relabelled(r, given[e], vertices);
    }
}

void enqueueRelabel(const int* given, int* colIndices, size_t entries, day38::Relabel r, int vertices) {
    if (entries == 0) return;
    relabelNeighbours<<<64, 256>>>(given, colIndices, entries, r, vertices);
    CUDA_TRY(cudaGetLastError());
}

// One timed run's buffers: the graph's neighbour ids, the frontier, the
// checksums and the edge mapping's scratch, each its own.
struct TimedWalkRun {
    TimedWalkRun(const DeviceState& d, int size)
        : colIndices("a timed run's colIndices", std::max<size_t>(d.colIndices.count(), 1)),
          frontier("a timed run's frontier", size),
          out("a timed run's walkOut", size),
          edgeStart("a timed run's edgeStart", d.edgeStart.count()),
          scanStorage("a timed run's scanStorage", d.scanStorage->count()) {}

    day38::DeviceCsr csr(const DeviceState& d) const { return {d.rowOffsets.data(), colIndices.data(), d.vertexCount}; }
    day38::EdgeScratch scratch() const { return {edgeStart.data(), scanStorage.data(), scanStorage.count()}; }
    void guard(grading::GuardSet& guards) const {
        for (const grading::GuardedBytes* b : std::initializer_list<const grading::GuardedBytes*>{
                 &colIndices, &frontier, &out, &edgeStart, &scanStorage}) {
            guards.add(*b);
        }
    }

    GuardedBuffer<int> colIndices;
    GuardedBuffer<int> frontier;
    GuardedBuffer<unsigned int> out;
    GuardedBuffer<int> edgeStart;
    GuardedBuffer<unsigned char> scanStorage;
};

// One walk of `size` vertices with mapping m on a timed run's own buffers.
void launchTimedWalk(Mapping m, const DeviceState& d, const TimedWalkRun& run, int size, int repeats) {
    const day38::DeviceCsr g = run.csr(d);
    switch (m) {
        case Mapping::Thread: day38::launchWalkThreadPerVertex(g, run.frontier.data(), size, repeats, run.out.data()); break;
        case Mapping::Warp: day38::launchWalkWarpPerVertex(g, run.frontier.data(), size, repeats, run.out.data()); break;
        case Mapping::Edge:
            day38::launchWalkEdgePerThread(g, run.frontier.data(), size, repeats, run.out.data(), run.scratch());
            break;
        case Mapping::Device: break;  // refused by levelMapping
    }
}

// The timed runs of frontier k (protocol.h, WalkResult): every run has
// buffers of its own, as the checked walk has. Run 0 walks the graph as
// sent; every later run the graph relabelled on the device its own way
// (clocked_walk.h, timedWalkRelabel), none derived from another's, so no
// answer kept from one run serves the next. After its stop event, outside
// what is timed, run 0's checksums are kept, and a later run's compared
// with the course's warp-per-vertex walk of its graph (a sum: the same in
// any order), its neighbour ids and frontier with what it was given. The
// warm-ups have buffers of their own.
void timeWalk(Mapping m, const DeviceState& d, const proto::WalkRequest& req, int k, const std::string& where,
              proto::WalkResult& result) {
    grading::breadcrumb("timing " + where);
    const int size = req.frontierStart[k + 1] - req.frontierStart[k];
    const size_t entries = d.graph.colIndices.size();
    GuardedBuffer<int> sentColIndices("the neighbour ids as sent", std::max<size_t>(entries, 1));
    if (entries > 0) sentColIndices.upload(d.graph.colIndices);
    GuardedBuffer<int> givenColIndices("a timed run's neighbour ids as given", std::max<size_t>(entries, 1));
    GuardedBuffer<int> givenFrontier("the frontier as given", size);
    givenFrontier.upload(req.frontiers.data() + req.frontierStart[k], size);
    GuardedBuffer<unsigned int> answer("the course's walk of a timed run's graph", size);
    GuardedBuffer<unsigned int> runZero("timed run 0's walkOut", size);
    const auto relabelOf = [&](int run) { return day38::timedWalkRelabel(req.key, k, run, d.vertexCount); };

    std::vector<std::unique_ptr<TimedWalkRun>> runs;
    grading::GuardSet guards = d.guards;
    for (int i = 0; i <= req.timedRuns; ++i) {
        runs.push_back(std::make_unique<TimedWalkRun>(d, size));
        TimedWalkRun& r = *runs.back();
        if (i == 0) {
            if (entries > 0) {
                CUDA_TRY(cudaMemcpy(r.colIndices.data(), sentColIndices.data(), entries * sizeof(int),
                                    cudaMemcpyDeviceToDevice));
            }
        } else {
            enqueueRelabel(sentColIndices.data(), r.colIndices.data(), entries, relabelOf(i), d.vertexCount);
        }
        CUDA_TRY(cudaMemcpy(r.frontier.data(), givenFrontier.data(), size * sizeof(int), cudaMemcpyDeviceToDevice));
        r.out.poison();
        r.edgeStart.poison();
        r.guard(guards);
    }
    for (const grading::GuardedBytes* b : std::initializer_list<const grading::GuardedBytes*>{
             &sentColIndices, &givenColIndices, &givenFrontier, &answer, &runZero}) {
        guards.add(*b);
    }
    const TimedWalkRun* current = runs.back().get();  // the warm-ups'
    grading::RunAnswerCheck answers(req.timedRuns);
    grading::RunAnswerCheck neighbours(req.timedRuns);
    grading::RunAnswerCheck frontiers(req.timedRuns);
    grading::TimedRunHooks hooks;
    hooks.before = [&](int i) { current = runs[i].get(); };
    hooks.after = [&](int i) {
        const TimedWalkRun& r = *runs[i];
        frontiers.compare(i, r.frontier.data(), givenFrontier.data(), size, nullptr);
        if (i == 0) {
            CUDA_TRY(cudaMemcpyAsync(runZero.data(), r.out.data(), size * sizeof(unsigned int), cudaMemcpyDeviceToDevice));
            neighbours.compare(i, r.colIndices.data(), sentColIndices.data(), entries, nullptr);
            return;
        }
        enqueueRelabel(sentColIndices.data(), givenColIndices.data(), entries, relabelOf(i), d.vertexCount);
        neighbours.compare(i, r.colIndices.data(), givenColIndices.data(), entries, nullptr);
        const day38::DeviceCsr given{d.rowOffsets.data(), givenColIndices.data(), d.vertexCount};
        day38::launchWalkWarpPerVertex(given, givenFrontier.data(), size, req.repeats, answer.data());
        answers.compare(i, r.out.data(), answer.data(), size, nullptr);
    };
    const auto launch = [&] { launchTimedWalk(m, d, *current, size, req.repeats); };
    result.walkMs.push_back(grading::timeRuns(launch, where, kWarmupRuns, req.timedRuns, nullptr, hooks).medianMs);
    grading::checkLaunch("timing " + where);
    guards.check("timing " + where);
    // An input written is named, whichever run wrote it.
    const std::vector<int64_t> frontierWritten = frontiers.firstDifferences();
    const std::vector<int64_t> neighboursWritten = neighbours.firstDifferences();
    for (int i = 0; i < req.timedRuns; ++i) {
        const std::string run = "timing " + where + ", timed run " + std::to_string(i) + ",";
        if (frontierWritten[i] >= 0) {
            throw grading::ContractViolation(run + " wrote to its input frontier at index " +
                                             std::to_string(frontierWritten[i]));
        }
        if (neighboursWritten[i] >= 0) {
            throw grading::ContractViolation(run + " wrote to its input colIndices at index " +
                                             std::to_string(neighboursWritten[i]));
        }
    }
    const std::vector<unsigned int> runZeroOut = runZero.download();
    result.timedChecksums.insert(result.timedChecksums.end(), runZeroOut.begin(), runZeroOut.end());
    const std::vector<int64_t> diffs = answers.firstDifferences();
    result.timedRunDiff.insert(result.timedRunDiff.end(), diffs.begin(), diffs.end());
}

proto::WalkResult walk(const proto::WalkRequest& req) {
    const HostCsr g = checkedCsr(req.rowOffsets, req.colIndices);
    const Mapping m = levelMapping(req.mapping);
    checkVertices(req.frontiers, g.vertexCount, "frontiers");
    const std::vector<int32_t>& start = req.frontierStart;
    checkSlicing(start, req.frontiers);
    DeviceState d(g);

    proto::WalkResult result;
    // The timed frontiers and the walks between them under one wait for the
    // GPU exclusively, not one wait each.
    std::optional<grading::TimedSection> measuring;
    if (req.timedRuns > 0 && !req.timeFrontiers.empty()) measuring.emplace();
    for (size_t k = 0; k + 1 < start.size(); ++k) {
        const int size = start[k + 1] - start[k];
        if (size == 0) continue;
        grading::lendGpuToMeasurements();
        // Buffers sized exactly to this frontier, so the guards sit right after it.
        GuardedBuffer<int> frontier("frontier", size);
        GuardedBuffer<unsigned int> out("walkOut", size);
        frontier.upload(req.frontiers.data() + start[k], size);
        out.poison();
        d.edgeStart.poison();
        grading::GuardSet guards = d.guards;
        guards.add(frontier);
        guards.add(out);

        const std::string where = std::string(walkName(m)) + " on frontier " + std::to_string(k);
        const auto launch = [&] { launchWalk(m, d, frontier.data(), size, req.repeats, out.data()); };
        grading::breadcrumb(where);
        launch();
        grading::checkLaunch(where);
        if (m == Mapping::Edge) d.edgeStart.markLive(static_cast<size_t>(size) + 1);
        guards.check(where);
        const std::vector<unsigned int> got = out.download();
        result.checksums.insert(result.checksums.end(), got.begin(), got.end());

        const bool timed = std::find(req.timeFrontiers.begin(), req.timeFrontiers.end(), static_cast<int>(k)) !=
                           req.timeFrontiers.end();
        if (req.timedRuns > 0 && timed) timeWalk(m, d, req, static_cast<int>(k), where, result);
    }
    return result;
}

// ---- the clocked walks (a speed gate's measure)

__global__ void proveRuns(const unsigned int* out, size_t perRun, int runs, uint64_t key, unsigned long long* proofs) {
    const size_t words = perRun * static_cast<size_t>(runs);
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < words; i += size_t{gridDim.x} * blockDim.x) {
        const int run = static_cast<int>(i / perRun);
        const uint64_t term = day38::clockedProofTerm(day38::clockedRunKey(key, run), i % perRun, out[i]);
        atomicAdd(&proofs[run], static_cast<unsigned long long>(term));
    }
}

proto::ClockedWalkResult clockedWalk(const proto::ClockedWalkRequest& req) {
    const HostCsr g = checkedCsr(req.rowOffsets, req.colIndices);
    const Mapping m = levelMapping(req.mapping);
    checkVertices(req.frontiers, g.vertexCount, "frontiers");
    checkSlicing(req.frontierStart, req.frontiers);
    if (req.frontiers.empty()) throw InputError("frontiers is empty: nothing to walk");
    DeviceState d(g);
    const size_t entries = g.colIndices.size();
    const size_t perRun = req.frontiers.size();
    GuardedBuffer<int> given("the neighbour ids as sent", std::max<size_t>(entries, 1));
    if (entries > 0) given.upload(g.colIndices);
    GuardedBuffer<int> frontiers("frontiers", perRun);
    frontiers.upload(req.frontiers);
    GuardedBuffer<unsigned int> out("every run's walkOut", perRun * static_cast<size_t>(req.runs));
    out.poison();
    GuardedBuffer<unsigned long long> proofs("proofs", static_cast<size_t>(req.runs));
    CUDA_TRY(cudaMemset(proofs.data(), 0, proofs.count() * sizeof(unsigned long long)));
    d.edgeStart.forgetLive();
    grading::GuardSet guards = d.guards;
    guards.add(given);
    guards.add(frontiers);
    guards.add(out);
    const std::string where = std::string(walkName(m)) + ", " + std::to_string(req.runs) + " clocked runs";
    grading::breadcrumb(where);
    {
        // Everything the grader's clock should see, on the GPU alone.
        const grading::TimedSection measuring;
        for (int run = 0; run < req.runs; ++run) {
            enqueueRelabel(given.data(), d.colIndices.data(), entries, day38::clockedRelabel(req.key, run, g.vertexCount),
                           g.vertexCount);
            unsigned int* runOut = out.data() + perRun * static_cast<size_t>(run);
            for (size_t k = 0; k + 1 < req.frontierStart.size(); ++k) {
                const int size = req.frontierStart[k + 1] - req.frontierStart[k];
                if (size > 0) {
                    launchWalk(m, d, frontiers.data() + req.frontierStart[k], size, req.repeats,
                               runOut + req.frontierStart[k]);
                }
            }
        }
        proveRuns<<<264, 256>>>(out.data(), perRun, req.runs, req.key, proofs.data());
        grading::checkLaunch(where);  // waits for the walks and the proofs
    }
    guards.check(where);
    proto::ClockedWalkResult result;
    const std::vector<unsigned long long> got = proofs.download();
    result.proofs.assign(got.begin(), got.end());
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    grading::runnerMain(argc, argv,
                        {grading::serve<proto::Bfs>(bfs), grading::serve<proto::Expand>(expandOne),
                         grading::serve<proto::Walk>(walk), grading::serve<proto::ClockedWalk>(clockedWalk)});
}
