// fails: none
// passes: 34.stencil 34.ring 34.copy_policy 34.max_principle 34.unstable 34.timing 34.speed
// A correct variant, written unlike the solution: each thread walks down a
// strip of kTileY rows of one column, keeping the cells above, at and below
// in registers as it goes (one new global read a row for the column), and
// reads the left and right neighbours from global memory.
#include "heat_kernels.h"

namespace day34 {

__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r) {
    const int col = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) + 1;
    if (col >= n - 1) return;
    // The block's threadIdx.y picks one of its strips; one strip per (x, y) thread.
    const int strip = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    const int first = 1 + strip * kTileY;
    if (first >= n - 1) return;
    const int last = min(first + kTileY, n - 1);  // one past
    float above = in[static_cast<size_t>(first - 1) * n + col];
    float here = in[static_cast<size_t>(first) * n + col];
    for (int row = first; row < last; ++row) {
        const size_t at = static_cast<size_t>(row) * n + col;
        const float below = in[at + n];
        out[at] = here + r * (((above + below) + (in[at - 1] + in[at + 1])) - 4.0f * here);
        above = here;
        here = below;
    }
}

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    // kTileY rows a thread: the course's grid has kTileY times the strips needed; the spare threads return.
    heatStepTiled<<<stencilGrid(n), stencilBlock()>>>(in, out, n, r);
}

}  // namespace day34
