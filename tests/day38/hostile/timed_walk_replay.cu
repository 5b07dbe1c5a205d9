// fails: 38.timing
// cases: edge_word_graph
// expect: the timed walk of level [0-9]+, run 2: slot [0-9]+ is not the course's walk of the run's own graph: the run did not do its own walk
// Hostile submission: walks for real on the first six calls of a frontier
// (the checked walk, the warm-ups and the first two timed runs), keeping a
// copy, and from then on only copies that copy back: times to match a
// fraction of the work. It knows a frontier by its size and first vertex,
// whatever buffers it comes in. Each timed run walks the graph relabelled
// its own way, so run 2's copy is run 1's answer to another graph, and the
// runner's check of every timed run names it.
#include "harness/cuda_check.h"

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

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    // One frontier's calls: the same size and first vertex.
    static int lastFirst = -1;
    static int lastSize = -1;
    static int callsHere = 0;
    static unsigned int* kept = nullptr;
    static int keptSize = 0;
    int first = -1;
    if (frontierSize > 0) CUDA_TRY(cudaMemcpy(&first, frontier, sizeof(int), cudaMemcpyDeviceToHost));
    if (first != lastFirst || frontierSize != lastSize) {
        lastFirst = first;
        lastSize = frontierSize;
        callsHere = 0;
    }
    if (keptSize < frontierSize) {
        if (kept != nullptr) cudaFree(kept);
        CUDA_TRY(cudaMalloc(&kept, static_cast<size_t>(frontierSize) * sizeof(unsigned int)));
        keptSize = frontierSize;
    }
    const size_t bytes = static_cast<size_t>(frontierSize) * sizeof(unsigned int);
    if (++callsHere <= 6) {
        referenceLaunchWalkEdgePerThread(g, frontier, frontierSize, repeats, out, scratch);
        CUDA_TRY(cudaMemcpyAsync(kept, out, bytes, cudaMemcpyDeviceToDevice));
        return;
    }
    CUDA_TRY(cudaMemcpyAsync(out, kept, bytes, cudaMemcpyDeviceToDevice));
}

}  // namespace day38
