// fails: none
// passes: 38.distances 38.timing
// Reads the context's flags (cudaGetDeviceFlags) on its first call and does
// the level's work only while they are unchanged: had a timed call shown
// other flags than a checked call, its timed searches would expand nothing
// and 38.timing would fail. It passes because every call of a runner shows
// the same flags. 38.distances runs first, then 38.timing, in one runner
// process.
#include "harness/cuda_check.h"

// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "bfs_mappings.h"
namespace day38 {
static void referenceExpandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                                         const LevelOutput& out, const EdgeScratch& scratch);
static void referenceLaunchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                                             unsigned int* out, const EdgeScratch& scratch);
}  // namespace day38
#define expandEdgePerThread referenceExpandEdgePerThread
#define launchWalkEdgePerThread referenceLaunchWalkEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef expandEdgePerThread
#undef launchWalkEdgePerThread

namespace day38 {
namespace {

bool flagsAsFirstSeen() {
    static unsigned firstFlags = ~0u;
    unsigned flags = 0;
    CUDA_TRY(cudaGetDeviceFlags(&flags));
    if (firstFlags == ~0u) firstFlags = flags;
    return flags == firstFlags;
}

}  // namespace

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level, const LevelOutput& out,
                         const EdgeScratch& scratch) {
    if (flagsAsFirstSeen()) referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
}

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    if (flagsAsFirstSeen()) referenceLaunchWalkEdgePerThread(g, frontier, frontierSize, repeats, out, scratch);
}

}  // namespace day38
