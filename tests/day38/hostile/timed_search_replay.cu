// fails: 38.timing
// cases: edge_word_graph
// expect: ^edge mapping on word_graph, 10 timed searches and walks: timed search [1-9][0-9]* \(from vertex [0-9]+\): vertex [0-9]+ \([^)]*\): got -?[0-9]+, want -?[0-9]+
// Hostile submission: searches for real on the process's first seven
// searches (the decoy, the checked search, the three warm-ups and the first
// two timed runs), keeping each level's frontier, and from then on replays
// the last real search's levels: timed searches at a fraction of the work.
// It counts searches, not buffers: each timed search has buffers of its own.
// Each starts from its own source and every one's distances come back, so
// 38.timing names the first replayed run (run 2 with three warm-ups) and its
// first wrong vertex.
#include <vector>

#include "harness/cuda_check.h"

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
namespace {

constexpr int kRealSearches = 7;

static __global__ void markLevel(const int* vertices, int count, int distance, int* dist) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) dist[vertices[i]] = distance;
}

}  // namespace

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    static int searches = 0;                      // in this process, whatever buffers they had
    static std::vector<std::vector<int>> levels;  // the last real search's, level by level
    if (level == 0) ++searches;
    if (searches <= kRealSearches) {
        if (level == 0) levels.clear();
        referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
        unsigned int produced = 0;
        CUDA_TRY(cudaMemcpy(&produced, out.nextSize, sizeof(produced), cudaMemcpyDeviceToHost));
        levels.emplace_back(produced);
        if (produced > 0) {
            CUDA_TRY(cudaMemcpy(levels.back().data(), out.nextFrontier, produced * sizeof(int),
                                cudaMemcpyDeviceToHost));
        }
        return;
    }
    const std::vector<int> replay = level < static_cast<int>(levels.size()) ? levels[level] : std::vector<int>{};
    const unsigned int count = static_cast<unsigned int>(replay.size());
    CUDA_TRY(cudaMemcpy(out.nextSize, &count, sizeof(count), cudaMemcpyHostToDevice));
    if (count > 0) {
        CUDA_TRY(cudaMemcpy(out.nextFrontier, replay.data(), count * sizeof(int), cudaMemcpyHostToDevice));
        markLevel<<<blocksFor(count, kThreadsPerBlock), kThreadsPerBlock>>>(out.nextFrontier, static_cast<int>(count),
                                                                            level + 1, out.dist);
    }
}

}  // namespace day38
