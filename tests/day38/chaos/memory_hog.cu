// Chaos neighbour: takes all free device memory but 1 GiB, and keeps it
// while its runner lives; expands nothing.
#include "bfs_mappings.h"
#define expandEdgePerThread static solutionExpandEdgePerThread  // internal: README.md
#include "copied_solution.cu"
#undef expandEdgePerThread

namespace day38 {

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput&, const EdgeScratch&) {
    static void* held = nullptr;
    size_t freeBytes = 0, totalBytes = 0;
    if (held == nullptr && cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess && freeBytes > (size_t(1) << 30)) {
        if (cudaMalloc(&held, freeBytes - (size_t(1) << 30)) != cudaSuccess) (void)cudaGetLastError();
    }
}

}  // namespace day38
