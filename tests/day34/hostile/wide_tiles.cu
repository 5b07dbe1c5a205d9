// fails: none
// passes: 34.stencil 34.ring 34.copy_policy 34.max_principle 34.unstable 34.timing 34.speed
// A correct variant, written unlike the solution: a tile shape of its own,
// 64 x 4 output cells a block (the contract lets the launcher choose), its
// 66 x 6 apron filled by a two-dimensional loop, each thread striding by the
// block's width along a row and by its height down the rows, rather than
// one flat loop over the apron's cells.
#include "heat_kernels.h"

namespace day34 {
namespace {

constexpr int kWideX = 64;
constexpr int kWideY = 4;

}  // namespace

__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r) {
    __shared__ float apron[kWideY + 2][kWideX + 2];
    // Apron cell (0, 0) is grid cell (y0, x0): the tile's first output is (y0 + 1, x0 + 1).
    const int x0 = static_cast<int>(blockIdx.x) * kWideX;
    const int y0 = static_cast<int>(blockIdx.y) * kWideY;
    for (int ay = static_cast<int>(threadIdx.y); ay < kWideY + 2; ay += static_cast<int>(blockDim.y)) {
        for (int ax = static_cast<int>(threadIdx.x); ax < kWideX + 2; ax += static_cast<int>(blockDim.x)) {
            const int gy = y0 + ay;
            const int gx = x0 + ax;
            apron[ay][ax] = gy < n && gx < n ? in[static_cast<size_t>(gy) * static_cast<size_t>(n) + gx] : kCold;
        }
    }
    __syncthreads();
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const int col = x0 + 1 + tx;
    const int row = y0 + 1 + ty;
    if (row >= n - 1 || col >= n - 1) return;
    const float c = apron[ty + 1][tx + 1];
    const float vertical = apron[ty][tx + 1] + apron[ty + 2][tx + 1];
    const float horizontal = apron[ty + 1][tx] + apron[ty + 1][tx + 2];
    out[static_cast<size_t>(row) * static_cast<size_t>(n) + col] = c + r * ((vertical + horizontal) - 4.0f * c);
}

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    const unsigned interior = static_cast<unsigned>(n - 2);
    const dim3 block(kWideX, kWideY);
    const dim3 grid((interior + kWideX - 1) / kWideX, (interior + kWideY - 1) / kWideY);
    heatStepTiled<<<grid, block>>>(in, out, n, r);
}

}  // namespace day34
