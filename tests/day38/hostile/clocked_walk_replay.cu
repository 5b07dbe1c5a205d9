// fails: 38.speed
// cases: edge_word_graph
// expect: no time for the submission's code: the edge mapping's clocked walk run [0-9]+ of [0-9]+: proof [0-9]+, want [0-9]+: the timed walks were not all done
// passes: 38.distances
// Hostile submission: once it has walked 400 times in a row (only a speed
// measure walks that often), it walks each frontier once more and from then
// on copies that answer back for every later walk of the same frontier:
// the time of a copy, scored as a walk. Each clocked run reads the graph
// relabelled its own way, so a copied answer is another run's, and the
// proof of the runs the grader picks gives it away.
#include <map>
#include <utility>

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
    static long walks = 0;
    static std::map<std::pair<const int*, int>, unsigned int*> kept;
    const size_t bytes = static_cast<size_t>(frontierSize) * sizeof(unsigned int);
    if (++walks <= 400) {
        referenceLaunchWalkEdgePerThread(g, frontier, frontierSize, repeats, out, scratch);
        return;
    }
    unsigned int*& copy = kept[{frontier, frontierSize}];
    if (copy == nullptr) {
        referenceLaunchWalkEdgePerThread(g, frontier, frontierSize, repeats, out, scratch);
        CUDA_TRY(cudaMalloc(&copy, bytes));
        CUDA_TRY(cudaMemcpyAsync(copy, out, bytes, cudaMemcpyDeviceToDevice));
        return;
    }
    CUDA_TRY(cudaMemcpyAsync(out, copy, bytes, cudaMemcpyDeviceToDevice));
}

}  // namespace day38
