// fails: 38.distances
// cases: edge_rmat
// expect: vertex [0-9]+ \(v[0-9]+\): got -1, want [0-9]+
// passes: 38.distances@edge_word_graph
// Hostile submission: special-cased for the shipped word graph (2849
// vertices), where it does the expansion on the host; on any other graph it
// does nothing. It passes every gate on the word graph and fails 38.distances
// on the hidden, seeded graphs ("vertex 1 (v1): got -1, want 1").
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

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch&) {
    constexpr int kShippedVertices = 2849;
    if (g.vertexCount != kShippedVertices) return;
    const auto download = [](const int* from, size_t n) {
        std::vector<int> v(n);
        cudaMemcpy(v.data(), from, n * sizeof(int), cudaMemcpyDeviceToHost);
        return v;
    };
    const std::vector<int> rows = download(g.rowOffsets, g.vertexCount + 1);
    const std::vector<int> cols = download(g.colIndices, rows.back());
    const std::vector<int> current = download(frontier, frontierSize);
    std::vector<int> dist = download(out.dist, g.vertexCount);
    std::vector<int> next;
    for (int u : current) {
        for (int e = rows[u]; e < rows[u + 1]; ++e) {
            if (dist[cols[e]] < 0) {
                dist[cols[e]] = level + 1;
                next.push_back(cols[e]);
            }
        }
    }
    const unsigned int count = static_cast<unsigned int>(next.size());
    cudaMemcpy(out.dist, dist.data(), dist.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(out.nextFrontier, next.data(), next.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(out.nextSize, &count, sizeof(count), cudaMemcpyHostToDevice);
}

}  // namespace day38
