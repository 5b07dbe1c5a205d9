// fails: day34.builds
// expect: error: it calls cudaLaunchHostFunc, which day34's exercise may not call at all
// Hostile submission: the solution's step, then a host callback queued
// behind it, which would run on the driver's thread after the launcher
// returned. No use of a host callback keeps the day's contract, so the seal
// refuses the call by name and stops the build.
#include "heat_kernels.h"
namespace day34 {
static void launchSolutionStep(const float* in, float* out, int n, float r);
}  // namespace day34
#define launchHeatStepTiled launchSolutionStep
#include "../../../reference/day34/solution/heat_tiled.cu"  // instructor-only fixture: it may use the solution
#undef launchHeatStepTiled

namespace day34 {
namespace {
void afterTheStep(void*) {}
}  // namespace

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    launchSolutionStep(in, out, n, r);
    cudaLaunchHostFunc(cudaStreamLegacy, afterTheStep, nullptr);
}

}  // namespace day34
