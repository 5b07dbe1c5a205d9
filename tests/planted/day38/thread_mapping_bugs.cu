// Planted bugs (day 38) in the thread mapping, one per build:
//  PLANT_PLAIN_CLAIM      claims with a plain test instead of atomicCAS: racing
//                         threads all see -1, all write the same distance and
//                         all append. Must fail 38.frontier_total while
//                         38.distances still passes.
//  PLANT_APPEND_PAST_END  appends one slot too far, as if atomicAdd returned
//                         the new count: each level's last append lands just
//                         past the frontier's live end, where guard words sit.
#include "bfs_mappings.h"
#include "claim.cuh"

namespace day38 {

__global__ void bfsExpandThreadPerVertex(const int* __restrict__ frontier, int frontierSize,
                                         const int* __restrict__ rowOffsets,
                                         const int* __restrict__ colIndices, int* __restrict__ dist,
                                         int level, int* __restrict__ nextFrontier,
                                         unsigned int* __restrict__ nextSize) {
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (t >= static_cast<size_t>(frontierSize)) return;
    const int u = frontier[t];
    for (int e = rowOffsets[u]; e < rowOffsets[u + 1]; ++e) {
        const int v = colIndices[e];
#if defined(PLANT_PLAIN_CLAIM)
        if (dist[v] < 0) {  // test and write are two steps
            dist[v] = level + 1;
            nextFrontier[atomicAdd(nextSize, 1u)] = v;
        }
#elif defined(PLANT_APPEND_PAST_END)
        if (atomicCAS(&dist[v], -1, level + 1) == -1) {
            nextFrontier[atomicAdd(nextSize, 1u) + 1] = v;  // one past the slot
        }
#else
#error "define the bug to plant"
#endif
    }
}

__global__ void walkThreadPerVertex(const int* __restrict__ frontier, int frontierSize,
                                    const int* __restrict__ rowOffsets,
                                    const int* __restrict__ colIndices, int repeats,
                                    unsigned int* __restrict__ out) {
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (t >= static_cast<size_t>(frontierSize)) return;
    const int u = frontier[t];
    unsigned int acc = 0u;
    for (int r = 0; r < repeats; ++r) {
        for (int e = rowOffsets[u]; e < rowOffsets[u + 1]; ++e) {
            acc += static_cast<unsigned int>(colIndices[e]) ^ static_cast<unsigned int>(r);
        }
    }
    out[t] = acc;
}

void expandThreadPerVertex(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                           const LevelOutput& out) {
    bfsExpandThreadPerVertex<<<blocksFor(frontierSize, kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, frontierSize, g.rowOffsets, g.colIndices, out.dist, level, out.nextFrontier,
        out.nextSize);
}

void launchWalkThreadPerVertex(const DeviceCsr& g, const int* frontier, int frontierSize,
                               int repeats, unsigned int* out) {
    walkThreadPerVertex<<<blocksFor(frontierSize, kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, frontierSize, g.rowOffsets, g.colIndices, repeats, out);
}

}  // namespace day38
