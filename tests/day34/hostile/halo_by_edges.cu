// fails: none
// passes: 34.stencil 34.ring 34.copy_policy 34.max_principle 34.unstable 34.timing 34.speed
// A correct variant, written unlike the solution: each thread loads its own
// cell into the apron, and the threads on the tile's edges load the halo
// beside them (corners are never read), instead of one loop over the whole
// apron. The course's tile and launch shape.
#include "heat_kernels.h"

namespace day34 {
namespace {

__device__ float cellOr(const float* in, int n, int row, int col) {
    return row >= 0 && row < n && col >= 0 && col < n ? in[static_cast<size_t>(row) * n + col] : kCold;
}

}  // namespace

__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r) {
    __shared__ float tile[kSharedY][kSharedX];
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const int col = static_cast<int>(blockIdx.x) * kTileX + 1 + tx;
    const int row = static_cast<int>(blockIdx.y) * kTileY + 1 + ty;
    tile[ty + 1][tx + 1] = cellOr(in, n, row, col);
    if (tx == 0) tile[ty + 1][0] = cellOr(in, n, row, col - 1);
    if (tx == kTileX - 1) tile[ty + 1][kTileX + 1] = cellOr(in, n, row, col + 1);
    if (ty == 0) tile[0][tx + 1] = cellOr(in, n, row - 1, col);
    if (ty == kTileY - 1) tile[kTileY + 1][tx + 1] = cellOr(in, n, row + 1, col);
    __syncthreads();
    if (row >= n - 1 || col >= n - 1) return;
    const float c = tile[ty + 1][tx + 1];
    const float sum = (tile[ty][tx + 1] + tile[ty + 2][tx + 1]) + (tile[ty + 1][tx] + tile[ty + 1][tx + 2]);
    out[static_cast<size_t>(row) * n + col] = c + r * (sum - 4.0f * c);
}

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    heatStepTiled<<<stencilGrid(n), stencilBlock()>>>(in, out, n, r);
}

}  // namespace day34
