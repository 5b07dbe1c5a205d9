// fails: none
// passes: 52.diamond 52.overlap
// Reads the context's flags (cudaGetDeviceFlags) on its first call and
// queues the diamond only while they are unchanged: had a timed call shown
// other flags than a checked call, it would skip the timed work and fail
// 52.overlap. It passes because every call of a runner shows the same
// flags. 52.diamond runs first, then 52.overlap, in one runner process.
#include "harness/cuda_check.h"

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

void enqueueDiamond(const Diamond& d) {
    static unsigned firstFlags = ~0u;
    unsigned flags = 0;
    CUDA_TRY(cudaGetDeviceFlags(&flags));
    if (firstFlags == ~0u) firstFlags = flags;
    if (flags == firstFlags) referenceEnqueueDiamond(d);
}

}  // namespace day52
