// The exercise's instructor solution: one thread per frontier edge. An
// exclusive scan of the frontier's degrees (the course's exclusiveSumInPlace,
// cub::DeviceScan built once) gives each frontier vertex the first edge index
// it owns; thread e binary-searches for the last start <= e, so every thread
// does one unit of work and no warp waits on a wide vertex.
#include "bfs_mappings.h"
#include "claim.cuh"
#include "harness/cuda_check.h"

namespace day38 {
namespace {

// edgeStart[i] = degree of frontier[i]; edgeStart[frontierSize] = 0, so the
// exclusive scan's last entry is the level's edge total.
__global__ void frontierDegrees(const int* __restrict__ frontier, int frontierSize,
                                const int* __restrict__ rowOffsets, int* __restrict__ edgeStart) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < static_cast<size_t>(frontierSize)) {
        const int u = frontier[i];
        edgeStart[i] = rowOffsets[u + 1] - rowOffsets[u];
    } else if (i == static_cast<size_t>(frontierSize)) {
        edgeStart[i] = 0;
    }
}

// The frontier slot owning edge e: the last i with edgeStart[i] <= e.
// Zero-degree vertices repeat a start value; "last" skips past them.
__device__ int ownerOfEdge(const int* __restrict__ edgeStart, int frontierSize, int e) {
    int lo = 0;
    int hi = frontierSize - 1;
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (edgeStart[mid] <= e) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

// Page-locked, so the read-back the host waits on every level goes straight
// to it instead of through the driver's staging buffer.
int* pinnedEdgeTotal() {
    static int* const total = [] {
        int* p = nullptr;
        CUDA_TRY(cudaMallocHost(&p, sizeof(int)));
        return p;
    }();
    return total;
}

// Scans the frontier's degrees into scratch.edgeStart and returns the total,
// which the host needs to size the launch (one more round trip per level).
int scanFrontierDegrees(const DeviceCsr& g, const int* frontier, int frontierSize,
                        const EdgeScratch& scratch) {
    frontierDegrees<<<blocksFor(frontierSize + 1, kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, frontierSize, g.rowOffsets, scratch.edgeStart);
    exclusiveSumInPlace(scratch.edgeStart, frontierSize + 1, scratch);
    int* const total = pinnedEdgeTotal();
    CUDA_TRY(cudaMemcpy(total, scratch.edgeStart + frontierSize, sizeof(int), cudaMemcpyDeviceToHost));
    return *total;
}

}  // namespace

__global__ void bfsExpandEdgePerThread(const int* __restrict__ frontier,
                                       const int* __restrict__ edgeStart, int frontierSize,
                                       int totalEdges, const int* __restrict__ rowOffsets,
                                       const int* __restrict__ colIndices, int* __restrict__ dist,
                                       int level, int* __restrict__ nextFrontier,
                                       unsigned int* __restrict__ nextSize) {
    const size_t e = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (e >= static_cast<size_t>(totalEdges)) return;
    const int i = ownerOfEdge(edgeStart, frontierSize, static_cast<int>(e));
    const int v = colIndices[rowOffsets[frontier[i]] + static_cast<int>(e) - edgeStart[i]];
    claimVertex(v, level, dist, nextFrontier, nextSize);
}

// Each thread sums its one edge over all repeats, then adds into its owner's
// slot; unsigned addition commutes and wraps, so the total is exact.
__global__ void walkEdgePerThread(const int* __restrict__ frontier,
                                  const int* __restrict__ edgeStart, int frontierSize,
                                  int totalEdges, const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats,
                                  unsigned int* __restrict__ out) {
    const size_t e = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (e >= static_cast<size_t>(totalEdges)) return;
    const int i = ownerOfEdge(edgeStart, frontierSize, static_cast<int>(e));
    const unsigned int v = static_cast<unsigned int>(
        colIndices[rowOffsets[frontier[i]] + static_cast<int>(e) - edgeStart[i]]);
    unsigned int acc = 0u;
    for (int r = 0; r < repeats; ++r) acc += v ^ static_cast<unsigned int>(r);
    atomicAdd(&out[i], acc);
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    const int totalEdges = scanFrontierDegrees(g, frontier, frontierSize, scratch);
    if (totalEdges == 0) return;
    bfsExpandEdgePerThread<<<blocksFor(totalEdges, kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, scratch.edgeStart, frontierSize, totalEdges, g.rowOffsets, g.colIndices,
        out.dist, level, out.nextFrontier, out.nextSize);
}

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize,
                             int repeats, unsigned int* out, const EdgeScratch& scratch) {
    CUDA_TRY(cudaMemsetAsync(out, 0, static_cast<size_t>(frontierSize) * sizeof(unsigned int)));
    const int totalEdges = scanFrontierDegrees(g, frontier, frontierSize, scratch);
    if (totalEdges == 0) return;
    walkEdgePerThread<<<blocksFor(totalEdges, kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, scratch.edgeStart, frontierSize, totalEdges, g.rowOffsets, g.colIndices,
        repeats, out);
}

}  // namespace day38
