// Chaos neighbour: forks until it cannot, each child waiting forever;
// expands nothing.
#include <unistd.h>
#include "bfs_mappings.h"
#define expandEdgePerThread static solutionExpandEdgePerThread  // internal: README.md
#include "copied_solution.cu"
#undef expandEdgePerThread

namespace day38 {

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput&, const EdgeScratch&) {
    for (int k = 0; k < 100000; ++k) {
        const pid_t child = fork();
        if (child < 0) break;
        if (child == 0) {
            for (;;) pause();
        }
    }
}

}  // namespace day38
