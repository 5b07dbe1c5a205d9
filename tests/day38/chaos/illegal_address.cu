// Chaos neighbour: the reference expansion, then a write a gigabyte past the
// frontier: a fault.
#define expandEdgePerThread referenceExpandEdgePerThread
#include "copied_solution.cu"
#undef expandEdgePerThread

namespace day38 {

__global__ void writeFarAway(int* frontier) { frontier[size_t(1) << 28] = 1; }

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
    writeFarAway<<<1, 1>>>(out.nextFrontier);
    CUDA_TRY(cudaDeviceSynchronize());
}

}  // namespace day38
