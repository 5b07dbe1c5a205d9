// fails: 38.distances
// cases: edge_word_graph
// expect: vertex [0-9]+ \([a-z]+\): got -?[0-9]+, want -?[0-9]+
// Hostile submission: computes its first search for real, remembers every
// level's frontier, and replays them on every later search. The runner
// searches from a decoy source first, so the graded search gets the decoy's
// answer: 38.distances names the first vertex that comes out wrong.
#include <vector>

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

static __global__ void markLevel(const int* vertices, int count, int distance, int* dist) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) dist[vertices[i]] = distance;
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    static int searches = 0;
    static std::vector<std::vector<int>> recorded;
    if (level == 0) ++searches;
    if (searches == 1) {
        referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
        unsigned int produced = 0;
        cudaMemcpy(&produced, out.nextSize, sizeof(produced), cudaMemcpyDeviceToHost);
        recorded.emplace_back(produced);
        cudaMemcpy(recorded.back().data(), out.nextFrontier, produced * sizeof(int), cudaMemcpyDeviceToHost);
        return;
    }
    const std::vector<int> replay = level < static_cast<int>(recorded.size()) ? recorded[level] : std::vector<int>{};
    const unsigned int count = static_cast<unsigned int>(replay.size());
    cudaMemcpy(out.nextFrontier, replay.data(), count * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(out.nextSize, &count, sizeof(count), cudaMemcpyHostToDevice);
    if (count > 0) markLevel<<<blocksFor(count, kThreadsPerBlock), kThreadsPerBlock>>>(out.nextFrontier, count, level + 1, out.dist);
}

}  // namespace day38
