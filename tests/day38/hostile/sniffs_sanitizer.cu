// fails: 38.walk
// cases: edge_star
// sanitizer: memcheck
// expect: compute-sanitizer \(memcheck\) found an error in `walk --mapping edge on star`.*Invalid __global__ write
// Hostile submission: writes past the guard words, where only
// compute-sanitizer sees it, unless its environment says a sanitizer is
// watching (GRADING_SANITIZER, or a variable compute-sanitizer sets). The
// runner starts with a clean environment, so it cannot tell and is caught.
#include <cstdlib>

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

static __global__ void writeBeyondGuards(unsigned int* out, size_t index) { out[index] = 1u; }

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    referenceLaunchWalkEdgePerThread(g, frontier, frontierSize, repeats, out, scratch);
    const bool watched = std::getenv("GRADING_SANITIZER") != nullptr || std::getenv("GRADING_SEED") != nullptr;
    if (!watched) writeBeyondGuards<<<1, 1>>>(out, static_cast<size_t>(frontierSize) + 512);
}

}  // namespace day38
