// fails: none
// passes: 38.distances 38.levels 38.frontier_total 38.walk 38.timing 38.speed
// A correct variant, written unlike the solution: one thread of each block
// finds the owner of the block's first edge; every thread then walks forward
// from it to its own edge's owner (a few steps: the block's edges are
// consecutive), and claims with a CAS of its own.
#include "bfs_mappings.h"
#include "claim.cuh"  // blocksFor
#include "harness/cuda_check.h"

namespace day38 {
namespace {

__global__ void degreesOf(const int* frontier, int frontierSize, const int* rowOffsets, int* starts) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < frontierSize) starts[i] = rowOffsets[frontier[i] + 1] - rowOffsets[frontier[i]];
    if (i == frontierSize) starts[i] = 0;
}

// The last slot whose start is <= e (zero-degree slots repeat a start).
__device__ int lastStartAtOrBefore(const int* starts, int count, int e) {
    int lo = 0, hi = count - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (starts[mid] <= e) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// The owner of edge e, found from the block's first edge's owner.
__device__ int ownerFrom(const int* starts, int count, int blockOwner, int e) {
    int i = blockOwner;
    while (i + 1 < count && starts[i + 1] <= e) ++i;
    return i;
}

__device__ int blockFirstOwner(const int* starts, int count, int firstEdge) {
    __shared__ int owner;
    if (threadIdx.x == 0) owner = lastStartAtOrBefore(starts, count, firstEdge);
    __syncthreads();
    return owner;
}

int edgeTotal(const DeviceCsr& g, const int* frontier, int frontierSize, const EdgeScratch& scratch) {
    degreesOf<<<blocksFor(frontierSize + 1, kThreadsPerBlock), kThreadsPerBlock>>>(frontier, frontierSize, g.rowOffsets,
                                                                                   scratch.edgeStart);
    exclusiveSumInPlace(scratch.edgeStart, frontierSize + 1, scratch);
    int total = 0;
    CUDA_TRY(cudaMemcpy(&total, scratch.edgeStart + frontierSize, sizeof(int), cudaMemcpyDeviceToHost));
    return total;
}

}  // namespace

__global__ void bfsExpandEdgePerThread(const int* __restrict__ frontier, const int* __restrict__ edgeStart,
                                       int frontierSize, int totalEdges, const int* __restrict__ rowOffsets,
                                       const int* __restrict__ colIndices, int* __restrict__ dist, int level,
                                       int* __restrict__ nextFrontier, unsigned int* __restrict__ nextSize) {
    const int first = blockIdx.x * blockDim.x;
    const int owner = blockFirstOwner(edgeStart, frontierSize, first);
    const int e = first + threadIdx.x;
    if (e >= totalEdges) return;
    const int i = ownerFrom(edgeStart, frontierSize, owner, e);
    const int v = colIndices[rowOffsets[frontier[i]] + e - edgeStart[i]];
    if (atomicCAS(&dist[v], -1, level + 1) == -1) nextFrontier[atomicAdd(nextSize, 1u)] = v;
}

__global__ void walkEdgePerThread(const int* __restrict__ frontier, const int* __restrict__ edgeStart,
                                  int frontierSize, int totalEdges, const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats, unsigned int* __restrict__ out) {
    const int first = blockIdx.x * blockDim.x;
    const int owner = blockFirstOwner(edgeStart, frontierSize, first);
    const int e = first + threadIdx.x;
    if (e >= totalEdges) return;
    const int i = ownerFrom(edgeStart, frontierSize, owner, e);
    const unsigned int v = static_cast<unsigned int>(colIndices[rowOffsets[frontier[i]] + e - edgeStart[i]]);
    unsigned int acc = 0u;
    for (int r = 0; r < repeats; ++r) acc += v ^ static_cast<unsigned int>(r);
    atomicAdd(&out[i], acc);
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level, const LevelOutput& out,
                         const EdgeScratch& scratch) {
    const int total = edgeTotal(g, frontier, frontierSize, scratch);
    if (total == 0) return;
    bfsExpandEdgePerThread<<<blocksFor(total, kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, scratch.edgeStart, frontierSize, total, g.rowOffsets, g.colIndices, out.dist, level,
        out.nextFrontier, out.nextSize);
}

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    CUDA_TRY(cudaMemsetAsync(out, 0, static_cast<size_t>(frontierSize) * sizeof(unsigned int)));
    const int total = edgeTotal(g, frontier, frontierSize, scratch);
    if (total == 0) return;
    walkEdgePerThread<<<blocksFor(total, kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, scratch.edgeStart, frontierSize, total, g.rowOffsets, g.colIndices, repeats, out);
}

}  // namespace day38
