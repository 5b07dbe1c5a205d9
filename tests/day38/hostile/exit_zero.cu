// fails: 38.levels
// cases: edge_word_graph
// expect: exited with status 0 without a complete result
// Hostile submission: ends the process with status 0 from inside the
// launcher, as if everything were fine. The runner leaves no complete result
// and the test fails: "... exited with status 0 without a complete result".
#include <cstdlib>

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

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput&, const EdgeScratch&) {
    std::exit(0);
}

}  // namespace day38
