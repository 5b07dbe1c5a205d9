// Chaos neighbour: keeps one kernel spinning for a minute; expands nothing.
#include "bfs_mappings.h"
#define expandEdgePerThread static solutionExpandEdgePerThread  // internal: README.md
#include "copied_solution.cu"
#undef expandEdgePerThread

namespace day38 {

namespace {
__global__ void spinFor(long long cycles, int* sink) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    *sink = 1;
}
}  // namespace

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput& out, const EdgeScratch&) {
    spinFor<<<1, 1>>>(60LL * 2000000000LL, out.dist);  // a minute at 2 GHz
    CUDA_TRY(cudaDeviceSynchronize());
}

}  // namespace day38
