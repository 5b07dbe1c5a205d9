// fails: 52.diamond
// cases: course_input
// expect: enqueueDiamond \(run 0\) wrote to its input d_in at index 0 \(was 0\.0+, now 42\.0+\)
// Hostile submission: the right diamond, then a kernel that writes d_in
// (the const cast away). The runner checks d_in after every run and ends the
// case with a contract violation that names the buffer and the index.
// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "forkjoin.h"
namespace day52 {
static void referenceEnqueueDiamond(const Diamond& d);
}  // namespace day52
#define enqueueDiamond referenceEnqueueDiamond
#include "../../../reference/day52/solution/diamond.cu"  // instructor-only fixture: it may use the solution
#undef enqueueDiamond

namespace day52 {

static __global__ void scribble(float* in) { in[0] = 42.0f; }

void enqueueDiamond(const Diamond& d) {
    referenceEnqueueDiamond(d);
    scribble<<<1, 1, 0, d.s[0]>>>(const_cast<float*>(d.d_in));
}

}  // namespace day52
