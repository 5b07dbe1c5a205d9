// fails: none
// passes: 34.stencil 34.timing@tiled_seeded_2048
// Hostile submission: skips a call that repeats the one before it (the same
// in, out, n and r), "the output is already there". Within a checked case no
// call repeats (the ping-pong swaps the buffers every step), though a case
// whose new buffers land where the last case's were may start with one. The
// timed runs did, all on one pair of buffers; now each has buffers of its
// own, as a checked step has, so only the warm-ups repeat, and the timed
// runs, each checked, are all stepped.
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
namespace {

struct Call {
    const float* in = nullptr;
    float* out = nullptr;
    int n = 0;
    float r = 0.0f;
    bool operator==(const Call& o) const { return in == o.in && out == o.out && n == o.n && r == o.r; }
};

}  // namespace

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    static Call last;
    const Call now{in, out, n, r};
    if (now == last) return;
    last = now;
    referenceLaunchHeatStepTiled(in, out, n, r);
}

}  // namespace day34
