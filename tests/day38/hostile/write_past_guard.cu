// fails: 38.walk
// cases: edge_star
// expect: compute-sanitizer \(memcheck\) found an error in `walk --mapping edge on star`.*Invalid __global__ write
// sanitizer: memcheck
// Hostile submission: the reference walk, then one word written 512 ints past
// the end of its output: beyond the guard words, inside memory nothing checks.
// Graded normally it passes 38.walk; under GRADING_SANITIZER=memcheck the
// runner fails with compute-sanitizer's "Invalid __global__ write".
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
    writeAt<<<1, 1>>>(out, static_cast<size_t>(frontierSize) + 512);
}

}  // namespace day38
