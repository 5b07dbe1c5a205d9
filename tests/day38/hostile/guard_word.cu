// fails: 38.walk
// cases: edge_word_graph
// expect: after walkEdgePerThread \(edge mapping\) on frontier 0: buffer walkOut was written past its end, at index [0-9]+ \(it holds [0-9]+\)
// Hostile submission: the reference walk, then one word written just past the
// output it was given. The guard words after walkOut catch it: 38.walk fails
// with "buffer walkOut was written past its end, at index N (it holds N)".
// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "bfs_mappings.h"
namespace day38 {
static void referenceLaunchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                                             unsigned int* out, const EdgeScratch& scratch);
}  // namespace day38
#define launchWalkEdgePerThread referenceLaunchWalkEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef launchWalkEdgePerThread

namespace day38 {

static __global__ void writeAt(unsigned int* out, size_t index) { out[index] = 1u; }

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    referenceLaunchWalkEdgePerThread(g, frontier, frontierSize, repeats, out, scratch);
    writeAt<<<1, 1>>>(out, static_cast<size_t>(frontierSize));
}

}  // namespace day38
