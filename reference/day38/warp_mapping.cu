// One warp per frontier vertex: the 32 lanes stride through one neighbour
// list together, so a wide vertex costs ceil(degree / 32) steps and the reads
// coalesce. The price is 32 threads per vertex, mostly idle on degree-1 levels.
#include "bfs_mappings.h"
#include "claim.cuh"

namespace day38 {

__global__ void bfsExpandWarpPerVertex(const int* __restrict__ frontier, int frontierSize,
                                       const int* __restrict__ rowOffsets,
                                       const int* __restrict__ colIndices, int* __restrict__ dist,
                                       int level, int* __restrict__ nextFrontier,
                                       unsigned int* __restrict__ nextSize) {
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    const int lane = static_cast<int>(threadIdx.x % kWarpSize);
    const size_t w = t / kWarpSize;  // the same for all 32 lanes
    if (w >= static_cast<size_t>(frontierSize)) return;
    const int u = frontier[w];
    const int last = rowOffsets[u + 1];
    for (int e = rowOffsets[u] + lane; e < last; e += kWarpSize) {
        claimVertex(colIndices[e], level, dist, nextFrontier, nextSize);
    }
}

// The lanes' partial sums meet in a shuffle ladder. The guard covers the walk
// only: every lane must reach every __shfl_down_sync, which is what the full
// mask promises. Addition commutes, so the lane order does not matter.
__global__ void walkWarpPerVertex(const int* __restrict__ frontier, int frontierSize,
                                  const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats,
                                  unsigned int* __restrict__ out) {
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    const int lane = static_cast<int>(threadIdx.x % kWarpSize);
    const size_t w = t / kWarpSize;
    const bool live = w < static_cast<size_t>(frontierSize);

    unsigned int acc = 0u;
    if (live) {
        const int u = frontier[w];
        const int last = rowOffsets[u + 1];
        for (int r = 0; r < repeats; ++r) {
            for (int e = rowOffsets[u] + lane; e < last; e += kWarpSize) {
                acc += static_cast<unsigned int>(colIndices[e]) ^ static_cast<unsigned int>(r);
            }
        }
    }
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
        acc += __shfl_down_sync(0xffffffffu, acc, offset);
    }
    if (live && lane == 0) out[w] = acc;
}

void expandWarpPerVertex(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out) {
    const size_t threads = static_cast<size_t>(frontierSize) * kWarpSize;
    bfsExpandWarpPerVertex<<<blocksFor(threads, kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, frontierSize, g.rowOffsets, g.colIndices, out.dist, level, out.nextFrontier,
        out.nextSize);
}

void launchWalkWarpPerVertex(const DeviceCsr& g, const int* frontier, int frontierSize,
                             int repeats, unsigned int* out) {
    const size_t threads = static_cast<size_t>(frontierSize) * kWarpSize;
    walkWarpPerVertex<<<blocksFor(threads, kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, frontierSize, g.rowOffsets, g.colIndices, repeats, out);
}

}  // namespace day38
