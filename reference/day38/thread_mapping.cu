// One thread per frontier vertex: the mapping everybody writes first. Correct,
// but a warp runs until its widest vertex is done while the other lanes idle,
// and the 32 lanes read 32 unrelated neighbour lists.
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
        claimVertex(colIndices[e], level, dist, nextFrontier, nextSize);
    }
}

// Reads exactly the lists the expansion reads, with no atomics, so a level
// can be timed on its own. XOR with the repeat counter keeps the compiler from
// hoisting the inner sum out of the repeat loop.
__global__ void walkThreadPerVertex(const int* __restrict__ frontier, int frontierSize,
                                    const int* __restrict__ rowOffsets,
                                    const int* __restrict__ colIndices, int repeats,
                                    unsigned int* __restrict__ out) {
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (t >= static_cast<size_t>(frontierSize)) return;
    const int u = frontier[t];
    const int first = rowOffsets[u];
    const int last = rowOffsets[u + 1];
    unsigned int acc = 0u;
    for (int r = 0; r < repeats; ++r) {
        for (int e = first; e < last; ++e) {
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
