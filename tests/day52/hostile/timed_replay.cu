// fails: 52.overlap
// expect: enqueueDiamond's timed run 2: index [0-9]+ is not run 0's output moved as the run's input was moved
// Hostile submission: computes its diamond for real on the first five calls
// with the same d_out (the warm-ups and the first two timed runs of
// 52.overlap), keeping a copy of the answer, and from then on only copies
// that answer into d_out: a fraction of the work, and times to match. Each
// timed run grinds its own input, so run 2's copy is run 1's answer, and the
// runner's check of every timed run names it.
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
    static const float* lastOut = nullptr;
    static int callsHere = 0;
    static float* kept = nullptr;
    if (d.d_out != lastOut) {
        lastOut = d.d_out;
        callsHere = 0;
    }
    if (kept == nullptr) CUDA_TRY(cudaMalloc(&kept, kElems * sizeof(float)));
    if (++callsHere <= 5) {
        referenceEnqueueDiamond(d);
        CUDA_TRY(cudaMemcpyAsync(kept, d.d_out, kElems * sizeof(float), cudaMemcpyDeviceToDevice, d.s[0]));
        return;
    }
    CUDA_TRY(cudaMemcpyAsync(d.d_out, kept, kElems * sizeof(float), cudaMemcpyDeviceToDevice, d.s[0]));
}

}  // namespace day52
