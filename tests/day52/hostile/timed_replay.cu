// fails: 52.overlap
// expect: enqueueDiamond's timed run 2: index [0-9]+ is not the course's enqueueSerial of the run's own input
// Hostile submission: computes its diamond for real on its first five calls
// (the warm-ups and the first two timed runs of 52.overlap), keeping a copy
// of the answer, and from then on only copies that answer into d_out, into
// whatever buffers a call brings: a fraction of the work, and times to
// match. Each timed run has buffers of its own and grinds an input of its
// own, made from a key, so run 2's copy is run 1's answer to another
// input, and the runner's check of every timed run names it.
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
    static int callsHere = 0;
    static float* kept = nullptr;
    if (kept == nullptr) CUDA_TRY(cudaMalloc(&kept, kElems * sizeof(float)));
    if (++callsHere <= 5) {
        referenceEnqueueDiamond(d);
        CUDA_TRY(cudaMemcpyAsync(kept, d.d_out, kElems * sizeof(float), cudaMemcpyDeviceToDevice, d.s[0]));
        return;
    }
    CUDA_TRY(cudaMemcpyAsync(d.d_out, kept, kElems * sizeof(float), cudaMemcpyDeviceToDevice, d.s[0]));
}

}  // namespace day52
