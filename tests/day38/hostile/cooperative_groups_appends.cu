// fails: none
// passes: 38.distances 38.levels 38.frontier_total 38.walk 38.timing 38.speed
// A correct variant with cooperative groups, in another launch shape: a grid
// sized by the occupancy API strides over the level's edges; the vertices a
// warp claims in one step are appended with one atomicAdd for all of them
// (cg::coalesced_threads, the leader's slot shuffled to the rest); and in the
// walk, the lanes of a step whose edges share an owner add their sums with
// cg::reduce over cg::labeled_partition, so one atomicAdd per owner and step.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "bfs_mappings.h"
#include "harness/cuda_check.h"

namespace cg = cooperative_groups;

namespace day38 {
namespace {

constexpr int kBlock = 256;

__global__ void degreesOf(const int* frontier, int frontierSize, const int* rowOffsets, int* edgeStart) {
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i <= frontierSize;
         i += static_cast<int>(gridDim.x * blockDim.x)) {
        edgeStart[i] = i < frontierSize ? rowOffsets[frontier[i] + 1] - rowOffsets[frontier[i]] : 0;
    }
}

// The last slot whose start is <= e.
__device__ int ownerOf(const int* edgeStart, int frontierSize, int e) {
    int lo = 0, count = frontierSize;  // the first start > e lies in [lo, lo + count]
    while (count > 0) {
        const int half = count / 2;
        if (edgeStart[lo + half] <= e) {
            lo += half + 1;
            count -= half + 1;
        } else {
            count = half;
        }
    }
    return lo - 1;
}

// Blocks enough to fill the GPU once, at most what the work needs.
template <class Kernel>
int strideGrid(Kernel kernel, int work) {
    static int device = -1, sms = 0;
    if (device < 0) {
        CUDA_TRY(cudaGetDevice(&device));
        CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    }
    int perSm = 0;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kBlock, 0));
    const int needed = (work + kBlock - 1) / kBlock;
    const int full = perSm * sms;
    return needed < full ? needed : full;
}

int edgeTotal(const DeviceCsr& g, const int* frontier, int frontierSize, const EdgeScratch& scratch) {
    degreesOf<<<strideGrid(degreesOf, frontierSize + 1), kBlock>>>(frontier, frontierSize, g.rowOffsets,
                                                                   scratch.edgeStart);
    exclusiveSumInPlace(scratch.edgeStart, frontierSize + 1, scratch);
    int total = 0;
    CUDA_TRY(cudaMemcpy(&total, scratch.edgeStart + frontierSize, sizeof total, cudaMemcpyDeviceToHost));
    return total;
}

}  // namespace

__global__ void bfsExpandEdgePerThread(const int* __restrict__ frontier,
                                       const int* __restrict__ edgeStart, int frontierSize,
                                       int totalEdges, const int* __restrict__ rowOffsets,
                                       const int* __restrict__ colIndices, int* __restrict__ dist,
                                       int level, int* __restrict__ nextFrontier,
                                       unsigned int* __restrict__ nextSize) {
    for (int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); e < totalEdges;
         e += static_cast<int>(gridDim.x * blockDim.x)) {
        const int i = ownerOf(edgeStart, frontierSize, e);
        const int v = colIndices[rowOffsets[frontier[i]] + e - edgeStart[i]];
        if (atomicCAS(&dist[v], -1, level + 1) == -1) {
            const cg::coalesced_group winners = cg::coalesced_threads();
            unsigned int first = 0;
            if (winners.thread_rank() == 0) first = atomicAdd(nextSize, winners.size());
            first = winners.shfl(first, 0);
            nextFrontier[first + winners.thread_rank()] = v;
        }
    }
}

__global__ void walkEdgePerThread(const int* __restrict__ frontier,
                                  const int* __restrict__ edgeStart, int frontierSize,
                                  int totalEdges, const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats,
                                  unsigned int* __restrict__ out) {
    for (int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); e < totalEdges;
         e += static_cast<int>(gridDim.x * blockDim.x)) {
        const int i = ownerOf(edgeStart, frontierSize, e);
        const auto v = static_cast<unsigned int>(colIndices[rowOffsets[frontier[i]] + e - edgeStart[i]]);
        unsigned int sum = 0u;
        for (int r = 0; r < repeats; ++r) sum += v ^ static_cast<unsigned int>(r);
        const cg::coalesced_group step = cg::coalesced_threads();
        const cg::coalesced_group sameOwner = cg::labeled_partition(step, i);
        const unsigned int ownerSum = cg::reduce(sameOwner, sum, cg::plus<unsigned int>());
        if (sameOwner.thread_rank() == 0) atomicAdd(&out[i], ownerSum);
    }
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    const int totalEdges = edgeTotal(g, frontier, frontierSize, scratch);
    if (totalEdges == 0) return;
    bfsExpandEdgePerThread<<<strideGrid(bfsExpandEdgePerThread, totalEdges), kBlock>>>(
        frontier, scratch.edgeStart, frontierSize, totalEdges, g.rowOffsets, g.colIndices, out.dist, level,
        out.nextFrontier, out.nextSize);
}

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    CUDA_TRY(cudaMemsetAsync(out, 0, static_cast<size_t>(frontierSize) * sizeof(unsigned int)));
    const int totalEdges = edgeTotal(g, frontier, frontierSize, scratch);
    if (totalEdges == 0) return;
    walkEdgePerThread<<<strideGrid(walkEdgePerThread, totalEdges), kBlock>>>(
        frontier, scratch.edgeStart, frontierSize, totalEdges, g.rowOffsets, g.colIndices, repeats, out);
}

}  // namespace day38
