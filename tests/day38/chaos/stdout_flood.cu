// Chaos neighbour: writes 2 GiB to stdout; expands nothing.
#include <cstdio>
#include <vector>
#include "bfs_mappings.h"
#define expandEdgePerThread static solutionExpandEdgePerThread  // internal: README.md
#include "copied_solution.cu"
#undef expandEdgePerThread

namespace day38 {

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput&, const EdgeScratch&) {
    const std::vector<char> block(size_t(1) << 20, 'y');
    for (int k = 0; k < 2048; ++k) std::fwrite(block.data(), 1, block.size(), stdout);
    std::fflush(stdout);
}

}  // namespace day38
