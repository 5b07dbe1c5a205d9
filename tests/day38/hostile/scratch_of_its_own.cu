// fails: none
// passes: 38.distances 38.levels 38.frontier_total 38.walk
// A correct variant that allocates device memory of its own on every call
// and frees it before returning, as the contract allows: 1 GiB a level,
// cudaMalloc and cudaFree on one call, cudaMallocAsync and cudaFreeAsync on
// the legacy stream on the next. A search's levels allocate far more than
// the 16 GiB a runner may hold, but never more than 1 GiB at once: the
// runner's checked allocations count what is freed as free again. The
// solution's expansion kept under another name, private to this file as a
// helper must be.
#include "bfs_mappings.h"
#define expandEdgePerThread static referenceExpandEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef expandEdgePerThread

namespace day38 {

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    constexpr size_t kScratchBytes = size_t{1} << 30;
    static bool streamOrdered = false;
    streamOrdered = !streamOrdered;
    void* own = nullptr;
    const cudaError_t made = streamOrdered ? cudaMallocAsync(&own, kScratchBytes, cudaStreamLegacy)
                                           : cudaMalloc(&own, kScratchBytes);
    if (made != cudaSuccess) return;  // the level then fails its gate, naming what it lacks
    cudaMemsetAsync(own, 0, kScratchBytes, cudaStreamLegacy);  // used, not only reserved
    referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
    if (streamOrdered) cudaFreeAsync(own, cudaStreamLegacy);
    else cudaFree(own);
}

}  // namespace day38
