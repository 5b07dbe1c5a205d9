// fails: none
// passes: 38.distances 38.levels 38.frontier_total 38.walk 38.timing 38.speed
// A correct variant on a stream of its own, as the contract allows: one
// blocking stream made on the first call (cudaStreamCreateWithFlags with the
// default flags), and on it the degrees, the scan (cub::DeviceScan with that
// stream), the edge total's read-back into a pinned word and every launch,
// the stream synchronized before each launcher returns. Owners come from
// cub::UpperBound. Its CUDA checks go through a pointer to grading::cudaTry,
// so the file keeps an out-of-line copy of the course's check.
#include <cub/device/device_scan.cuh>
#include <cub/thread/thread_search.cuh>

#include "bfs_mappings.h"
#include "claim.cuh"
#include "harness/cuda_check.h"

namespace day38 {
namespace {

constexpr int kBlock = 128;

void (*volatile const check)(cudaError_t, const char*, const char*, int) = &grading::cudaTry;
#define CHECK(call) check((call), #call, __FILE__, __LINE__)

cudaStream_t ownStream() {
    static const cudaStream_t stream = [] {
        cudaStream_t s = nullptr;
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamDefault));
        return s;
    }();
    return stream;
}

// Later work on the legacy stream (the runner's checks and timing) waits for
// everything queued on ours so far.
void joinLegacyStream(cudaStream_t stream) {
    static const cudaEvent_t done = [] {
        cudaEvent_t e = nullptr;
        CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        return e;
    }();
    CHECK(cudaEventRecord(done, stream));
    CHECK(cudaStreamWaitEvent(cudaStreamLegacy, done, 0));
}

int* pinnedWord() {
    static int* const word = [] {
        int* p = nullptr;
        CHECK(cudaMallocHost(&p, sizeof(int)));
        return p;
    }();
    return word;
}

__global__ void degrees(const int* frontier, int frontierSize, const int* rowOffsets, int* edgeStart) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i > frontierSize) return;
    edgeStart[i] = i == frontierSize ? 0 : rowOffsets[frontier[i] + 1] - rowOffsets[frontier[i]];
}

__device__ int ownerOf(const int* edgeStart, int frontierSize, int e) {
    return cub::UpperBound(edgeStart, frontierSize, e) - 1;
}

int edgeTotal(const DeviceCsr& g, const int* frontier, int frontierSize, const EdgeScratch& scratch,
              cudaStream_t stream) {
    degrees<<<(frontierSize + kBlock) / kBlock, kBlock, 0, stream>>>(frontier, frontierSize, g.rowOffsets,
                                                                      scratch.edgeStart);
    size_t bytes = scratch.scanStorageBytes;
    CHECK(cub::DeviceScan::ExclusiveSum(scratch.scanStorage, bytes, scratch.edgeStart, scratch.edgeStart,
                                        frontierSize + 1, stream));
    int* const total = pinnedWord();
    CHECK(cudaMemcpyAsync(total, scratch.edgeStart + frontierSize, sizeof(int), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    return *total;
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
    const int i = ownerOf(edgeStart, frontierSize, e);
    claimVertex(colIndices[rowOffsets[frontier[i]] + e - edgeStart[i]], level, dist, nextFrontier, nextSize);
}

__global__ void walkEdgePerThread(const int* __restrict__ frontier,
                                  const int* __restrict__ edgeStart, int frontierSize,
                                  int totalEdges, const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats,
                                  unsigned int* __restrict__ out) {
    const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (e >= totalEdges) return;
    const int i = ownerOf(edgeStart, frontierSize, e);
    const auto v = static_cast<unsigned int>(colIndices[rowOffsets[frontier[i]] + e - edgeStart[i]]);
    unsigned int sum = 0u;
    for (int r = 0; r < repeats; ++r) sum += v ^ static_cast<unsigned int>(r);
    atomicAdd(&out[i], sum);
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    const cudaStream_t stream = ownStream();
    const int totalEdges = edgeTotal(g, frontier, frontierSize, scratch, stream);
    if (totalEdges == 0) return;
    bfsExpandEdgePerThread<<<blocksFor(totalEdges, kBlock), kBlock, 0, stream>>>(
        frontier, scratch.edgeStart, frontierSize, totalEdges, g.rowOffsets, g.colIndices, out.dist, level,
        out.nextFrontier, out.nextSize);
    joinLegacyStream(stream);
}

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    const cudaStream_t stream = ownStream();
    CHECK(cudaMemsetAsync(out, 0, static_cast<size_t>(frontierSize) * sizeof(unsigned int), stream));
    const int totalEdges = edgeTotal(g, frontier, frontierSize, scratch, stream);
    if (totalEdges > 0) {
        walkEdgePerThread<<<blocksFor(totalEdges, kBlock), kBlock, 0, stream>>>(
            frontier, scratch.edgeStart, frontierSize, totalEdges, g.rowOffsets, g.colIndices, repeats, out);
    }
    joinLegacyStream(stream);
}

}  // namespace day38
