// fails: 34.stencil
// cases: tiled_seeded_34
// expect: \(exit status 4\): after heatStepTiled step 1 of 4 at r = 0\.24: buffer gridB was written past its end, at index 1156 \(it holds 1156\)
// Hostile submission: the solution's step, then one float written just past
// the grid it was given (34 x 34 = 1156 cells). The guard words after the
// output catch it: "buffer gridB was written past its end, at index 1156".
// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "heat_kernels.h"
namespace day34 {
static void referenceLaunchHeatStepTiled(const float* in, float* out, int n, float r);
}  // namespace day34
#define launchHeatStepTiled referenceLaunchHeatStepTiled
#include "../../../reference/day34/solution/heat_tiled.cu"  // instructor-only fixture: it may use the solution
#undef launchHeatStepTiled

namespace day34 {

static __global__ void writePastEnd(float* grid, int n) { grid[static_cast<size_t>(n) * n] = 1.0f; }

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    referenceLaunchHeatStepTiled(in, out, n, r);
    writePastEnd<<<1, 1>>>(out, n);
}

}  // namespace day34
