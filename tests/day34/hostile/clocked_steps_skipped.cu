// fails: 34.speed
// cases: tiled_seeded_2048
// expect: no time for the submission's code: heatStepTiled's [0-9]+ clocked steps left a grid of energy [-+.e0-9]+, the instructor's on the same input [-+.e0-9]+ \(relative tolerance 0.001\): the timed steps were not all done
// Hostile submission: steps for real until it has been handed the same two
// buffers back and forth 1500 times in a row, then skips every other step.
// A speed measure's calls chain 1000 and 2000 steps, timed by the grader's
// clock, so the skipped half would halve the time it scores; the energy of
// the grid it leaves gives it away. (34.copy_policy's loops chain that many
// too, so it may fail there as well; 34.timing's runs never chain.)
#include "heat_kernels.h"
namespace day34 {
static void referenceLaunchHeatStepTiled(const float* in, float* out, int n, float r);
}  // namespace day34
#define launchHeatStepTiled referenceLaunchHeatStepTiled
#include "../../../reference/day34/solution/heat_tiled.cu"  // instructor-only fixture: it may use the solution
#undef launchHeatStepTiled

namespace day34 {

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    static const float* lastIn = nullptr;
    static const float* lastOut = nullptr;
    static long chained = 0;
    chained = (in == lastOut && out == lastIn) ? chained + 1 : 0;
    lastIn = in;
    lastOut = out;
    if (chained > 1500 && chained % 2 == 0) return;
    referenceLaunchHeatStepTiled(in, out, n, r);
}

}  // namespace day34
