// fails: none
// passes: 38.distances 38.levels 38.frontier_total 38.walk 38.timing 38.speed
// A correct variant that leans on the toolkit, as the contract allows: the
// degrees by thrust::transform with an execution policy on the legacy
// stream, the scan by cub::DeviceScan::ExclusiveSum into the contract's own
// scratch (the call bfs_mappings.h documents, not the course's ready-made
// one), each edge's owner by thrust::upper_bound(thrust::seq) in the kernel,
// and the claim, the append and the walk's sums through cuda::atomic_ref.
// Its template instantiations are the file's own once sealed.
#include <cub/device/device_scan.cuh>
#include <cuda/atomic>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include "bfs_mappings.h"
#include "harness/cuda_check.h"

namespace day38 {
namespace {

constexpr int kBlock = 256;

// edgeStart[i] before the scan: frontier[i]'s degree, and 0 past the end.
struct DegreeOf {
    const int* frontier;
    int frontierSize;
    const int* rowOffsets;
    __device__ int operator()(int i) const {
        if (i == frontierSize) return 0;
        const int u = frontier[i];
        return rowOffsets[u + 1] - rowOffsets[u];
    }
};

int blocksOf(int threads) { return (threads + kBlock - 1) / kBlock; }

// The last slot whose start is <= e: one before the first start past e.
__device__ int ownerOf(const int* edgeStart, int frontierSize, int e) {
    return static_cast<int>(thrust::upper_bound(thrust::seq, edgeStart, edgeStart + frontierSize, e) - edgeStart) - 1;
}

__device__ int neighbourOf(const int* frontier, const int* edgeStart, const int* rowOffsets, const int* colIndices,
                           int owner, int e) {
    return colIndices[rowOffsets[frontier[owner]] + e - edgeStart[owner]];
}

int scanDegrees(const DeviceCsr& g, const int* frontier, int frontierSize, const EdgeScratch& scratch) {
    thrust::transform(thrust::cuda::par_nosync.on(cudaStreamLegacy), thrust::counting_iterator<int>(0),
                      thrust::counting_iterator<int>(frontierSize + 1), scratch.edgeStart,
                      DegreeOf{frontier, frontierSize, g.rowOffsets});
    size_t bytes = scratch.scanStorageBytes;
    CUDA_TRY(cub::DeviceScan::ExclusiveSum(scratch.scanStorage, bytes, scratch.edgeStart, scratch.edgeStart,
                                           frontierSize + 1));
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
    const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (e >= totalEdges) return;
    const int v = neighbourOf(frontier, edgeStart, rowOffsets, colIndices, ownerOf(edgeStart, frontierSize, e), e);
    cuda::atomic_ref<int, cuda::thread_scope_device> distance(dist[v]);
    int unreached = -1;
    if (distance.compare_exchange_strong(unreached, level + 1, cuda::std::memory_order_relaxed)) {
        cuda::atomic_ref<unsigned int, cuda::thread_scope_device> count(*nextSize);
        nextFrontier[count.fetch_add(1u, cuda::std::memory_order_relaxed)] = v;
    }
}

__global__ void walkEdgePerThread(const int* __restrict__ frontier,
                                  const int* __restrict__ edgeStart, int frontierSize,
                                  int totalEdges, const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats,
                                  unsigned int* __restrict__ out) {
    const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (e >= totalEdges) return;
    const int owner = ownerOf(edgeStart, frontierSize, e);
    const auto v = static_cast<unsigned int>(neighbourOf(frontier, edgeStart, rowOffsets, colIndices, owner, e));
    unsigned int sum = 0u;
    for (int r = 0; r < repeats; ++r) sum += v ^ static_cast<unsigned int>(r);
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(out[owner]).fetch_add(sum, cuda::std::memory_order_relaxed);
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    const int totalEdges = scanDegrees(g, frontier, frontierSize, scratch);
    if (totalEdges == 0) return;
    bfsExpandEdgePerThread<<<blocksOf(totalEdges), kBlock>>>(frontier, scratch.edgeStart, frontierSize, totalEdges,
                                                             g.rowOffsets, g.colIndices, out.dist, level,
                                                             out.nextFrontier, out.nextSize);
}

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    thrust::fill_n(thrust::cuda::par_nosync.on(cudaStreamLegacy), out, frontierSize, 0u);
    const int totalEdges = scanDegrees(g, frontier, frontierSize, scratch);
    if (totalEdges == 0) return;
    walkEdgePerThread<<<blocksOf(totalEdges), kBlock>>>(frontier, scratch.edgeStart, frontierSize, totalEdges,
                                                        g.rowOffsets, g.colIndices, repeats, out);
}

}  // namespace day38
