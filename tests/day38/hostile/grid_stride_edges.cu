// fails: none
// passes: 38.distances 38.levels 38.frontier_total 38.walk 38.timing 38.speed
// A correct variant, written unlike the solution: a grid of at most a few
// waves of blocks strides over the level's edges, and each edge's owner is
// the upper bound of the edge among the starts, less one (std::upper_bound's
// way, not a bisection on "last start <= e"); the walk adds each owner's
// contributions from one thread once per run of equal owners.
#include "bfs_mappings.h"
#include "claim.cuh"
#include "harness/cuda_check.h"

namespace day38 {
namespace {

constexpr int kMaxBlocks = 4096;

__global__ void degreesOf(const int* frontier, int frontierSize, const int* rowOffsets, int* starts) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= frontierSize; i += gridDim.x * blockDim.x) {
        starts[i] = i < frontierSize ? rowOffsets[frontier[i] + 1] - rowOffsets[frontier[i]] : 0;
    }
}

// The first index in [0, count) whose start is greater than e, less one.
__device__ int ownerOf(const int* starts, int count, int e) {
    int first = 0, length = count;
    while (length > 0) {
        const int half = length / 2;
        if (starts[first + half] <= e) {
            first += half + 1;
            length -= half + 1;
        } else {
            length = half;
        }
    }
    return first - 1;
}

int edgeTotal(const DeviceCsr& g, const int* frontier, int frontierSize, const EdgeScratch& scratch) {
    degreesOf<<<min(kMaxBlocks, blocksFor(frontierSize + 1, kThreadsPerBlock)), kThreadsPerBlock>>>(
        frontier, frontierSize, g.rowOffsets, scratch.edgeStart);
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
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < totalEdges; e += gridDim.x * blockDim.x) {
        const int i = ownerOf(edgeStart, frontierSize, e);
        claimVertex(colIndices[rowOffsets[frontier[i]] + (e - edgeStart[i])], level, dist, nextFrontier, nextSize);
    }
}

__global__ void walkEdgePerThread(const int* __restrict__ frontier, const int* __restrict__ edgeStart,
                                  int frontierSize, int totalEdges, const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats, unsigned int* __restrict__ out) {
    int owner = -1;
    unsigned int pending = 0u;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < totalEdges; e += gridDim.x * blockDim.x) {
        const int i = ownerOf(edgeStart, frontierSize, e);
        const unsigned int v = static_cast<unsigned int>(colIndices[rowOffsets[frontier[i]] + (e - edgeStart[i])]);
        unsigned int acc = 0u;
        for (int r = 0; r < repeats; ++r) acc += v ^ static_cast<unsigned int>(r);
        if (i != owner) {
            if (owner >= 0) atomicAdd(&out[owner], pending);
            owner = i;
            pending = 0u;
        }
        pending += acc;
    }
    if (owner >= 0) atomicAdd(&out[owner], pending);
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level, const LevelOutput& out,
                         const EdgeScratch& scratch) {
    const int total = edgeTotal(g, frontier, frontierSize, scratch);
    if (total == 0) return;
    bfsExpandEdgePerThread<<<min(kMaxBlocks, blocksFor(total, kThreadsPerBlock)), kThreadsPerBlock>>>(
        frontier, scratch.edgeStart, frontierSize, total, g.rowOffsets, g.colIndices, out.dist, level,
        out.nextFrontier, out.nextSize);
}

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    CUDA_TRY(cudaMemsetAsync(out, 0, static_cast<size_t>(frontierSize) * sizeof(unsigned int)));
    const int total = edgeTotal(g, frontier, frontierSize, scratch);
    if (total == 0) return;
    walkEdgePerThread<<<min(kMaxBlocks, blocksFor(total, kThreadsPerBlock)), kThreadsPerBlock>>>(
        frontier, scratch.edgeStart, frontierSize, total, g.rowOffsets, g.colIndices, repeats, out);
}

}  // namespace day38
