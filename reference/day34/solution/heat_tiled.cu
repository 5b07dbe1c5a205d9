// The instructor's tiled stencil: the course's design (32 x 8 output tile,
// 34 x 10 apron, fill loop written against blockDim), not tuned further.
#include "heat_kernels.h"

namespace day34 {

__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r) {
    __shared__ float apron[kSharedY][kSharedX];

    // Grid coordinates of the tile's first output cell (the interior starts at 1).
    const int originCol = static_cast<int>(blockIdx.x) * kTileX + 1;
    const int originRow = static_cast<int>(blockIdx.y) * kTileY + 1;

    // The whole block fills the apron row by row, 340 cells with 256 threads,
    // so a warp's loads are consecutive floats. Cells off the grid (only past
    // the far edges of the last tiles) read as cold and are never used.
    const int threads = static_cast<int>(blockDim.x * blockDim.y);
    const int self = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    for (int s = self; s < kSharedCells; s += threads) {
        const int ay = s / kSharedX;
        const int ax = s % kSharedX;
        const int gy = originRow - kHalo + ay;
        const int gx = originCol - kHalo + ax;
        const bool onGrid = gx >= 0 && gx < n && gy >= 0 && gy < n;
        apron[ay][ax] = onGrid ? in[static_cast<size_t>(gy) * static_cast<size_t>(n) + gx] : kCold;
    }
    // Every thread reads cells other threads loaded.
    __syncthreads();

    const int col = originCol + static_cast<int>(threadIdx.x);
    const int row = originRow + static_cast<int>(threadIdx.y);
    if (col >= n - 1 || row >= n - 1) return;
    const int ax = static_cast<int>(threadIdx.x) + kHalo;
    const int ay = static_cast<int>(threadIdx.y) + kHalo;
    const float centre = apron[ay][ax];
    const float around = apron[ay][ax - 1] + apron[ay][ax + 1] + apron[ay - 1][ax] + apron[ay + 1][ax];
    out[static_cast<size_t>(row) * static_cast<size_t>(n) + col] = centre + r * (around - 4.0f * centre);
}

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    heatStepTiled<<<stencilGrid(n), stencilBlock()>>>(in, out, n, r);
}

}  // namespace day34
