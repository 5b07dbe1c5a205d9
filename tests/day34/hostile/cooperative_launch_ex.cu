// fails: none
// passes: 34.stencil 34.ring 34.copy_policy 34.max_principle 34.unstable 34.timing 34.speed
// A correct variant with cooperative groups and another launch API: the
// block is a cg::thread_block, which fills the apron by its thread_rank and
// size and waits with block.sync(); the apron's cells come through
// cub::ThreadLoad with the read-only cache; and the launcher queues the
// kernel with cudaLaunchKernelEx on the legacy stream, its checks going
// through a pointer to grading::cudaTry (an out-of-line copy in this file).
#include <cooperative_groups.h>
#include <cub/thread/thread_load.cuh>

#include "harness/cuda_check.h"
#include "heat_kernels.h"

namespace cg = cooperative_groups;

namespace day34 {
namespace {

void (*volatile const check)(cudaError_t, const char*, const char*, int) = &grading::cudaTry;

}  // namespace

__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r) {
    __shared__ float apron[kSharedY][kSharedX];
    const cg::thread_block block = cg::this_thread_block();
    const int top = static_cast<int>(block.group_index().y) * kTileY;  // grid row of the apron's first row
    const int left = static_cast<int>(block.group_index().x) * kTileX;
    for (int cell = static_cast<int>(block.thread_rank()); cell < kSharedCells; cell += static_cast<int>(block.size())) {
        const int row = top + cell / kSharedX;
        const int col = left + cell % kSharedX;
        apron[cell / kSharedX][cell % kSharedX] =
            row < n && col < n ? cub::ThreadLoad<cub::LOAD_LDG>(in + static_cast<size_t>(row) * n + col) : kCold;
    }
    block.sync();
    const int ty = static_cast<int>(block.thread_index().y) + kHalo;
    const int tx = static_cast<int>(block.thread_index().x) + kHalo;
    const int row = top + ty;
    const int col = left + tx;
    if (row >= n - 1 || col >= n - 1) return;
    const float centre = apron[ty][tx];
    const float sum = apron[ty - 1][tx] + apron[ty + 1][tx] + apron[ty][tx - 1] + apron[ty][tx + 1];
    out[static_cast<size_t>(row) * n + col] = centre + r * (sum - 4.0f * centre);
}

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    cudaLaunchConfig_t config = {};
    config.gridDim = stencilGrid(n);
    config.blockDim = stencilBlock();
    config.stream = cudaStreamLegacy;
    check(cudaLaunchKernelEx(&config, heatStepTiled, in, out, n, r), "cudaLaunchKernelEx", __FILE__, __LINE__);
}

}  // namespace day34
