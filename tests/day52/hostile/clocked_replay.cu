// fails: 52.overlap
// expect: enqueueDiamond by the grader's clock: enqueueDiamond's clocked run [0-9]+ of [0-9]+ left a d_out whose squares sum to [-+.e0-9]+, the course's enqueueSerial's on the same input [-+.e0-9]+ \(relative tolerance 0.0001\): the timed runs were not all done
// passes: 52.diamond 52.stress
// Hostile submission: computes its diamond for real until it has been
// handed the same d_out 15 times in a row (the checked timed runs stop at
// 14: warm-ups, timed runs, the timeline's), then copies the 15th answer
// into d_out: the time of a copy, where 52.overlap's grader-clocked runs
// go on with the same rig. Each clocked run grinds an input of its own, so
// the copy is another run's answer, and the run's proof gives it away.
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
    if (++callsHere <= 15) {
        referenceEnqueueDiamond(d);
        CUDA_TRY(cudaMemcpyAsync(kept, d.d_out, kElems * sizeof(float), cudaMemcpyDeviceToDevice, d.s[0]));
        return;
    }
    CUDA_TRY(cudaMemcpyAsync(d.d_out, kept, kElems * sizeof(float), cudaMemcpyDeviceToDevice, d.s[0]));
}

}  // namespace day52
