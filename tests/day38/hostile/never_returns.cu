// fails: 38.distances
// cases: edge_word_graph
// expect: made no progress for [0-9.]+ s \(it was in expandEdgePerThread \(edge mapping\) at level 0\), so it was stopped before its [0-9.]+ s limit
// Hostile submission: an expansion kernel that never returns. The runner
// must be killed once its level's breadcrumb is kLevelStallSeconds old, well
// before the search's limit, the message naming the launcher, the level and
// both times; every other test still runs. (Also the planted runner "never_returns".)
#include "bfs_mappings.h"

namespace day38 {

__global__ void bfsExpandEdgePerThread(const int* __restrict__, const int* __restrict__, int, int,
                                       const int* __restrict__, const int* __restrict__,
                                       int* __restrict__ dist, int, int* __restrict__,
                                       unsigned int* __restrict__) {
    // Waits for a value nobody writes; volatile keeps the loop in the code.
    while (*static_cast<volatile int*>(dist) != 0x7fffffff) {
    }
}

__global__ void walkEdgePerThread(const int* __restrict__, const int* __restrict__, int, int,
                                  const int* __restrict__, const int* __restrict__, int,
                                  unsigned int* __restrict__) {}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    bfsExpandEdgePerThread<<<1, 32>>>(frontier, scratch.edgeStart, frontierSize, 1, g.rowOffsets,
                                      g.colIndices, out.dist, level, out.nextFrontier, out.nextSize);
}

void launchWalkEdgePerThread(const DeviceCsr&, const int*, int, int, unsigned int*, const EdgeScratch&) {}

}  // namespace day38
