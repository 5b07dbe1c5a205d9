// fails: 38.distances
// cases: edge_word_graph
// expect: CUDA error in expandEdgePerThread \(edge mapping\) at level 0: cudaError(IllegalAddress|InvalidAddressSpace)
// Hostile submission: the reference expansion, then a write a gigabyte past
// the frontier. The runner reports the fault (cudaErrorIllegalAddress, or on
// an H200 cudaErrorInvalidAddressSpace) against expandEdgePerThread at level
// 0, and every day 38 gate of this mapping fails with that message.
// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "bfs_mappings.h"
namespace day38 {
static void referenceExpandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                                         const LevelOutput& out, const EdgeScratch& scratch);
}  // namespace day38
#define expandEdgePerThread referenceExpandEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef expandEdgePerThread

namespace day38 {

static __global__ void writeFarAway(int* frontier) { frontier[size_t(1) << 28] = 1; }

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
    writeFarAway<<<1, 1>>>(out.nextFrontier);
}

}  // namespace day38
