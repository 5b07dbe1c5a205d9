// fails: 52.diamond
// cases: seeded
// expect: run 1: index [0-9]+: got [-+0-9.e]+, want [-+0-9.e]+
// Hostile submission: computes its first diamond for real, keeps the answer,
// and copies it into d_out on every later call. Each run of a case is a fresh
// diamond on a fresh input, so the second run gets the first run's answer:
// 52.diamond names the first element that comes out wrong.
#include <vector>

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
    static std::vector<float> answer;
    if (answer.empty()) {
        referenceEnqueueDiamond(d);
        answer.resize(kElems);
        CUDA_TRY(cudaDeviceSynchronize());
        CUDA_TRY(cudaMemcpy(answer.data(), d.d_out, kElems * sizeof(float), cudaMemcpyDeviceToHost));
        return;
    }
    CUDA_TRY(cudaMemcpy(d.d_out, answer.data(), kElems * sizeof(float), cudaMemcpyHostToDevice));
}

}  // namespace day52
