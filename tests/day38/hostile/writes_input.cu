// fails: 38.distances
// cases: edge_word_graph
// expect: expandEdgePerThread \(edge mapping\) at level 0 wrote to its input colIndices at index 0 \(was [0-9]+, now -7\)
// Hostile submission: the reference expansion, then it scribbles on the graph
// it was only meant to read. The runner compares the inputs after every level:
// "... wrote to its input colIndices at index 0 (was <v>, now -7)".
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

static __global__ void scribble(int* colIndices) { colIndices[0] = -7; }

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
    scribble<<<1, 1>>>(const_cast<int*>(g.colIndices));
}

}  // namespace day38
