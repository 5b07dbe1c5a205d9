// Chaos neighbour: sleeps for an hour, to its time limit; expands nothing.
#include <unistd.h>
#include "bfs_mappings.h"
#define expandEdgePerThread static solutionExpandEdgePerThread  // internal: README.md
#include "copied_solution.cu"
#undef expandEdgePerThread

namespace day38 {

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput&, const EdgeScratch&) { sleep(3600); }

}  // namespace day38
