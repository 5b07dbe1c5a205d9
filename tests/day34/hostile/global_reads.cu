// fails: none
// passes: 34.stencil 34.ring 34.copy_policy 34.max_principle 34.unstable 34.timing 34.speed
// A correct variant, written unlike the solution: no shared memory at all;
// each thread reads its five cells through the read-only cache (__ldg), on
// the course's launch shape. Right, if not what the exercise teaches.
#include "heat_kernels.h"

namespace day34 {

__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r) {
    const int col = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) + 1;
    const int row = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) + 1;
    if (row >= n - 1 || col >= n - 1) return;
    const size_t at = static_cast<size_t>(row) * n + col;
    const float c = __ldg(in + at);
    const float sum = __ldg(in + at - 1) + __ldg(in + at + 1) + __ldg(in + at - n) + __ldg(in + at + n);
    out[at] = c + r * (sum - 4.0f * c);
}

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    heatStepTiled<<<stencilGrid(n), stencilBlock()>>>(in, out, n, r);
}

}  // namespace day34
