// Chaos neighbour: writes a gigabyte past its frontier, so its runner
// faults (tests/day38/hostile/illegal_address.cu, as a student may write it).
#include "bfs_mappings.h"
#define expandEdgePerThread static solutionExpandEdgePerThread  // internal: README.md
#include "copied_solution.cu"
#undef expandEdgePerThread

namespace day38 {
namespace {
__global__ void writeFarAway(int* frontier) { frontier[size_t(1) << 28] = 1; }
}  // namespace

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput& out, const EdgeScratch&) {
    writeFarAway<<<1, 1>>>(out.nextFrontier);
}

}  // namespace day38
