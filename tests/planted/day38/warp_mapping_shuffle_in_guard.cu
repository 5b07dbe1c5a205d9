// Planted bug (day 38): the warp walk with its shuffle ladder moved inside the
// guarded walk, here the per-lane loop `e < last`. Lanes that run out of
// neighbours stop calling __shfl_down_sync while the full mask still promises
// all 32, and the ladder runs once per edge step instead of once, so partial
// sums are counted again. No error is raised: 38.walk must see a wrong sum.
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
    const size_t w = t / kWarpSize;
    if (w >= static_cast<size_t>(frontierSize)) return;
    const int u = frontier[w];
    for (int e = rowOffsets[u] + lane; e < rowOffsets[u + 1]; e += kWarpSize) {
        claimVertex(colIndices[e], level, dist, nextFrontier, nextSize);
    }
}

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
        for (int r = 0; r < repeats; ++r) {
            for (int e = rowOffsets[u] + lane; e < rowOffsets[u + 1]; e += kWarpSize) {
                acc += static_cast<unsigned int>(colIndices[e]) ^ static_cast<unsigned int>(r);
                for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {  // the bug
                    acc += __shfl_down_sync(0xffffffffu, acc, offset);
                }
            }
        }
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
