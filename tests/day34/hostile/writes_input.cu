// fails: 34.stencil
// cases: tiled_seeded_34
// expect: \(exit status 5\): heatStepTiled step 1 of 4 at r = 0\.24 wrote to its input gridA at row 1, col 1 \(was [-+.e0-9]+, now -7\)
// Hostile submission: the solution's step, then a write into the grid it
// was only meant to read. The runner compares the input after every checked
// launch and stops, naming the cell: "... wrote to its input gridA at row 1,
// col 1 (was <v>, now -7)".
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

static __global__ void scribble(float* grid, int n) { grid[n + 1] = -7.0f; }

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    referenceLaunchHeatStepTiled(in, out, n, r);
    scribble<<<1, 1>>>(const_cast<float*>(in), n);
}

}  // namespace day34
