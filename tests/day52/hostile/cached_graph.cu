// fails: 52.diamond
// cases: seeded
// expect: (run 1: index [0-9]+: got -26711958 \(never written: still the runner's poison\)|CUDA error in enqueueDiamond \(run 2\): cudaErrorIllegalAddress)
// Hostile submission: captures its first diamond into a CUDA graph and
// replays that graph on every later call. A graph holds the buffers it was
// captured with, so it only looks right while every call brings the same
// ones. The runner makes each run's diamond while the last still stands: run
// 1's replay writes run 0's buffers, and run 1's d_out keeps its poison.
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
    static cudaGraphExec_t replay = nullptr;
    if (replay == nullptr) {
        cudaGraph_t graph = nullptr;
        CUDA_TRY(cudaStreamBeginCapture(d.s[0], cudaStreamCaptureModeThreadLocal));
        referenceEnqueueDiamond(d);
        CUDA_TRY(cudaStreamEndCapture(d.s[0], &graph));
        CUDA_TRY(cudaGraphInstantiate(&replay, graph, 0));
        CUDA_TRY(cudaGraphDestroy(graph));
    }
    CUDA_TRY(cudaGraphLaunch(replay, d.s[0]));
}

}  // namespace day52
