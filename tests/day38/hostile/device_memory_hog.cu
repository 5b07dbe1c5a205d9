// fails: 38.distances
// cases: edge_word_graph
// expect: the submission called cudaMalloc for 20\.0 GiB: it would hold 20\.0 GiB of device memory, more than the 16 GiB a runner may hold
// Hostile submission: expands correctly, but first asks for 20 GiB of
// device memory and keeps it, which on an 80 GiB GPU the driver would give:
// memory the runners graded beside it then cannot have (the chaos class's
// memory_hog, which took all but 1 GiB, failed an honest neighbour's
// allocations that way). The seal sends the file's cudaMalloc to the
// runner's checked version, which refuses it as it is asked, before any
// memory is taken. The solution's expansion kept under another
// name, private to this file as a helper must be.
#include "bfs_mappings.h"
#define expandEdgePerThread static referenceExpandEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef expandEdgePerThread

namespace day38 {

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    static void* held = nullptr;
    if (held == nullptr && cudaMalloc(&held, size_t{20} << 30) != cudaSuccess) (void)cudaGetLastError();
    referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
}

}  // namespace day38
