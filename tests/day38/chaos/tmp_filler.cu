// Chaos neighbour: writes to its temporary folder until a write fails;
// expands nothing.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "bfs_mappings.h"
#define expandEdgePerThread static solutionExpandEdgePerThread  // internal: README.md
#include "copied_solution.cu"
#undef expandEdgePerThread

namespace day38 {

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput&, const EdgeScratch&) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/fill";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return;
    const std::vector<char> block(size_t(1) << 20, 'x');
    for (int k = 0; k < 1 << 20 && std::fwrite(block.data(), 1, block.size(), f) == block.size(); ++k) {
    }
    std::fclose(f);
}

}  // namespace day38
