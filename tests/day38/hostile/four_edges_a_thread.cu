// fails: none
// passes: 38.distances 38.levels 38.frontier_total 38.walk 38.timing 38.speed
// A correct variant, written unlike the solution: each thread takes four
// consecutive edges, finds the first one's owner by bisection and the rest
// by stepping forward, and (walking) adds one sum per owner it met.
#include "bfs_mappings.h"
#include "claim.cuh"
#include "harness/cuda_check.h"

namespace day38 {
namespace {

constexpr int kEdgesPerThread = 4;

__global__ void degreesOf(const int* frontier, int frontierSize, const int* rowOffsets, int* starts) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < frontierSize) starts[i] = rowOffsets[frontier[i] + 1] - rowOffsets[frontier[i]];
    if (i == frontierSize) starts[i] = 0;
}

__device__ int ownerOf(const int* starts, int count, int e) {
    int lo = 0, hi = count - 1;
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (starts[mid] <= e) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

__device__ int stepTo(const int* starts, int count, int i, int e) {
    while (i + 1 < count && starts[i + 1] <= e) ++i;
    return i;
}

int threadsFor(int edges) { return (edges + kEdgesPerThread - 1) / kEdgesPerThread; }

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
    const int first = (blockIdx.x * blockDim.x + threadIdx.x) * kEdgesPerThread;
    if (first >= totalEdges) return;
    int i = ownerOf(edgeStart, frontierSize, first);
    for (int e = first; e < first + kEdgesPerThread && e < totalEdges; ++e) {
        i = stepTo(edgeStart, frontierSize, i, e);
        claimVertex(colIndices[rowOffsets[frontier[i]] + e - edgeStart[i]], level, dist, nextFrontier, nextSize);
    }
}

__global__ void walkEdgePerThread(const int* __restrict__ frontier, const int* __restrict__ edgeStart,
                                  int frontierSize, int totalEdges, const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats, unsigned int* __restrict__ out) {
    const int first = (blockIdx.x * blockDim.x + threadIdx.x) * kEdgesPerThread;
    if (first >= totalEdges) return;
    int i = ownerOf(edgeStart, frontierSize, first);
    int owner = i;
    unsigned int sum = 0u;
    for (int e = first; e < first + kEdgesPerThread && e < totalEdges; ++e) {
        i = stepTo(edgeStart, frontierSize, i, e);
        if (i != owner) {
            atomicAdd(&out[owner], sum);
            owner = i;
            sum = 0u;
        }
        const unsigned int v = static_cast<unsigned int>(colIndices[rowOffsets[frontier[i]] + e - edgeStart[i]]);
        for (int r = 0; r < repeats; ++r) sum += v ^ static_cast<unsigned int>(r);
    }
    atomicAdd(&out[owner], sum);
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level, const LevelOutput& out,
                         const EdgeScratch& scratch) {
    const int total = edgeTotal(g, frontier, frontierSize, scratch);
    if (total == 0) return;
    bfsExpandEdgePerThread<<<blocksFor(threadsFor(total), kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, scratch.edgeStart, frontierSize, total, g.rowOffsets, g.colIndices, out.dist, level,
        out.nextFrontier, out.nextSize);
}

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    CUDA_TRY(cudaMemsetAsync(out, 0, static_cast<size_t>(frontierSize) * sizeof(unsigned int)));
    const int total = edgeTotal(g, frontier, frontierSize, scratch);
    if (total == 0) return;
    walkEdgePerThread<<<blocksFor(threadsFor(total), kThreadsPerBlock), kThreadsPerBlock>>>(
        frontier, scratch.edgeStart, frontierSize, total, g.rowOffsets, g.colIndices, repeats, out);
}

}  // namespace day38
