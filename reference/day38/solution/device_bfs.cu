// The device-driven search (see ../device_search.h): one cooperative launch
// runs every level; a grid-wide barrier ends each one. On the word graph the
// course's mappings spend most of a level on the host round trip (a launch,
// a memset, a count copied back); here a level costs a barrier and the
// latency of one chain of dependent memory operations, so the work of a
// level is spread as wide as the grid allows: one warp per chunk of at most
// 32 edges of one frontier vertex, one lane per edge, no lane walking a list
// alone. Claiming a vertex appends its chunks for the next level (the chunk
// list is the frontier); the frontier sizes are counted per level.
#include <cooperative_groups.h>

#include <algorithm>

#include "device_search.h"
#include "bfs_mappings.h"
#include "harness/cuda_check.h"

namespace day38 {
namespace {

namespace cg = cooperative_groups;

constexpr int kBlockThreads = 512;
constexpr int kEdgesPerThread = 4;  // grid sizing for large graphs: enough threads for a level of them all
constexpr unsigned kFullMask = 0xffffffffu;
static_assert(kDeviceChunkEdges == kWarpSize, "a chunk is one lane per edge");

struct Search {
    DeviceCsr g;
    int source;
    DeviceSearchBuffers b;
};

__device__ __forceinline__ int chunksOf(int degree) { return (degree + kDeviceChunkEdges - 1) / kDeviceChunkEdges; }

__device__ __forceinline__ void writeChunks(int* chunks, unsigned first, int begin, int end) {
    for (int e = begin; e < end; e += kDeviceChunkEdges, ++first) {
        chunks[2 * first] = e;
        chunks[2 * first + 1] = min(e + kDeviceChunkEdges, end);
    }
}

__global__ void __launch_bounds__(kBlockThreads) deviceBfsKernel(Search s) {
    cg::grid_group grid = cg::this_grid();
    const int n = s.g.vertexCount;
    const size_t thread = grid.thread_rank();
    const size_t threads = grid.size();
    const size_t warp = thread / kWarpSize;
    const size_t warps = threads / kWarpSize;
    const int lane = static_cast<int>(threadIdx.x % kWarpSize);

    // Level 0 is the source alone, its chunks in list 0.
    const int sourceBegin = __ldg(&s.g.rowOffsets[s.source]);
    const int sourceEnd = __ldg(&s.g.rowOffsets[s.source + 1]);
    for (size_t i = thread; i < static_cast<size_t>(n) + 2; i += threads) {
        if (i < static_cast<size_t>(n)) s.b.dist[i] = static_cast<int>(i) == s.source ? 0 : -1;
        s.b.levelSize[i] = i == 0 ? 1u : 0u;
        s.b.chunkCount[i] = i == 0 ? static_cast<unsigned>(chunksOf(sourceEnd - sourceBegin)) : 0u;
    }
    for (size_t c = thread; c < static_cast<size_t>(chunksOf(sourceEnd - sourceBegin)); c += threads) {
        writeChunks(s.b.chunks[0], static_cast<unsigned>(c), sourceBegin + static_cast<int>(c) * kDeviceChunkEdges,
                    min(sourceBegin + static_cast<int>(c + 1) * kDeviceChunkEdges, sourceEnd));
    }
    grid.sync();

    int level = 0;
    bool runaway = false;
    for (;; ++level) {
        // The same values in every thread: the loop ends everywhere at once.
        const unsigned size = __ldcg(&s.b.levelSize[level]);
        const unsigned chunks = __ldcg(&s.b.chunkCount[level]);
        if (size == 0) break;
        if (level >= n) {  // a correct search has at most one level per vertex
            runaway = true;
            break;
        }
        const int* list = s.b.chunks[level & 1];
        int* nextList = s.b.chunks[(level + 1) & 1];
        for (size_t c = warp; c < chunks; c += warps) {  // warp-uniform
            const int e = __ldcg(&list[2 * c]) + lane;
            const int end = __ldcg(&list[2 * c + 1]);
            bool won = false;
            int begin = 0, degree = 0;
            if (e < end) {
                const int v = __ldg(&s.g.colIndices[e]);
                // The list's bounds load while the claim is in flight.
                begin = __ldg(&s.g.rowOffsets[v]);
                degree = __ldg(&s.g.rowOffsets[v + 1]) - begin;
                won = atomicCAS(&s.b.dist[v], -1, level + 1) == -1;
            }
            // The claimed vertices' chunks, placed with one atomicAdd per warp.
            const int mine = won ? chunksOf(degree) : 0;
            int before = mine;  // inclusive scan over the lanes
            for (int d = 1; d < kWarpSize; d *= 2) {
                const int up = __shfl_up_sync(kFullMask, before, d);
                if (lane >= d) before += up;
            }
            const unsigned claimed = __ballot_sync(kFullMask, won);
            const int total = __shfl_sync(kFullMask, before, kWarpSize - 1);
            unsigned base = 0;
            if (lane == 0 && claimed != 0) atomicAdd(&s.b.levelSize[level + 1], static_cast<unsigned>(__popc(claimed)));
            if (lane == 0 && total > 0) base = atomicAdd(&s.b.chunkCount[level + 1], static_cast<unsigned>(total));
            base = __shfl_sync(kFullMask, base, 0);
            if (mine > 0) writeChunks(nextList, base + static_cast<unsigned>(before - mine), begin, begin + degree);
        }
        grid.sync();
    }
    if (thread == 0) {
        s.b.outcome[0] = level;
        s.b.outcome[1] = runaway ? 1 : 0;
    }
}

// The most blocks that can be resident at once on this device: a cooperative
// launch must not ask for more. Asked once per process.
int maxResidentBlocks() {
    static const int blocks = [] {
        int device = 0;
        int sms = 0;
        int perSm = 0;
        CUDA_TRY(cudaGetDevice(&device));
        CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, deviceBfsKernel, kBlockThreads, 0));
        return std::max(1, sms * perSm);
    }();
    return blocks;
}

}  // namespace

DeviceSearchOutcome deviceDrivenBfs(const DeviceCsr& g, size_t directedEdges, int source,
                                    const DeviceSearchBuffers& b, const DeviceSearchOptions& options) {
    // A block per SM at least (a level's chunks wait for a free warp, each a
    // whole chain of latencies); more for large graphs, up to what fits.
    static const int sms = [] {
        int device = 0;
        int count = 0;
        CUDA_TRY(cudaGetDevice(&device));
        CUDA_TRY(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
        return count;
    }();
    const size_t wanted = options.blocks > 0 ? static_cast<size_t>(options.blocks)
                                             : std::max<size_t>(sms, directedEdges / (kBlockThreads * kEdgesPerThread));
    const int blocks = static_cast<int>(std::min<size_t>(wanted, static_cast<size_t>(maxResidentBlocks())));
    Search s{g, source, b};
    void* args[] = {&s};
    CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(deviceBfsKernel), dim3(blocks),
                                         dim3(kBlockThreads), args, 0, nullptr));
    int outcome[2] = {0, 0};
    CUDA_TRY(cudaMemcpy(outcome, b.outcome, sizeof outcome, cudaMemcpyDeviceToHost));
    return {outcome[0], outcome[1] != 0};
}

}  // namespace day38
