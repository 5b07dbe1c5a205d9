// fails: none
// passes: 34.stencil 34.timing
// Reads the context's flags (cudaGetDeviceFlags) on its first call and
// launches the tiled step only while they are unchanged: had a timed call
// shown other flags than a checked call, its timed steps would do nothing
// and 34.timing would fail. It passes because every call of a runner shows
// the same flags. 34.stencil runs first, then 34.timing, in one runner
// process.
#include "harness/cuda_check.h"

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

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    static unsigned firstFlags = ~0u;
    unsigned flags = 0;
    CUDA_TRY(cudaGetDeviceFlags(&flags));
    if (firstFlags == ~0u) firstFlags = flags;
    if (flags == firstFlags) referenceLaunchHeatStepTiled(in, out, n, r);
}

}  // namespace day34
