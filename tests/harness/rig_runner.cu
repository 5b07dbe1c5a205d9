// A stand-in runner built on the runner rig alone (harness/cuda): poisoned
// outputs, guard words, the input-unchanged watch and the check for work
// left running, applied to one kernel as a day's runner applies them to a
// submission's call. Each scenario (rig_protocol.h) stands for a submission
// that breaks one rule, so the grader's tests (rig_test.cpp) can show that
// each check catches its own breach and passes the calls that keep it.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "harness/cuda_check.h"
#include "harness/guarded_buffer.h"
#include "harness/runner_main.h"
#include "harness/work_left_check.h"
#include "rig_protocol.h"

namespace {

namespace proto = rig::protocol;
using grading::GuardedBuffer;

__device__ unsigned dawdleSink;

// out[i] = in[i] + 1 for the first `live` elements, each counted once; then
// the scenario's one stray write, if any. `dawdleRounds` of arithmetic first
// (not a clock64 wait, each SM's own counter, so the delay holds wherever the
// block runs): long enough for the default stream's read to come first. The
// delay is this kernel's own, not a kernel before it: lazy loading (CUDA's
// default) loads a kernel at its first launch, and a load may wait for the
// whole context, so a second kernel's first launch would wait out the first
// and leave nothing running (so it did on an H100).
__global__ void addOne(const int* in, int* out, unsigned* count, int live, int* stray, int strayValue,
                       int dawdleRounds) {
    unsigned x = threadIdx.x;
    for (int r = 0; r < dawdleRounds; ++r) x = x * x + 1013904223u;  // not linear: no two steps fold into one
    if (x == 1u && dawdleRounds > 0) dawdleSink = x;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < live) {
        out[i] = in[i] + 1;
        atomicAdd(count, 1u);
    }
    if (i == 0 && stray != nullptr) *stray = strayValue;
}

// The "submission": the launch as the scenario has it.
void launch(const std::string& scenario, GuardedBuffer<int>& in, GuardedBuffer<int>& out,
            GuardedBuffer<unsigned>& count) {
    int* stray = nullptr;
    if (scenario == "write-before-start") stray = out.data() - 1;
    if (scenario == "write-past-end") stray = out.data() + proto::kCount;
    if (scenario == "write-past-live") stray = out.data() + proto::kLive;
    if (scenario == "write-input") stray = in.data() + proto::kWrittenInputIndex;
    constexpr int kStrayValue = -7;
    if (scenario == "own-blocking-stream" || scenario == "left-running") {
        // A blocking stream's work is ordered before the default stream's
        // next; a non-blocking one's is not, and it returns unfinished.
        // The runner's setup (poison, count zeroed, input kept) done first,
        // so the one race left is the one under test.
        CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
        const unsigned flags = scenario == "left-running" ? cudaStreamNonBlocking : cudaStreamDefault;
        cudaStream_t stream = nullptr;
        CUDA_TRY(cudaStreamCreateWithFlags(&stream, flags));
        constexpr int kDawdleRounds = 1 << 26;  // about a tenth of a second
        addOne<<<1, proto::kCount, 0, stream>>>(in.data(), out.data(), count.data(), proto::kLive, stray, kStrayValue,
                                                kDawdleRounds);
        CUDA_TRY(cudaStreamDestroy(stream));  // returns at once; the work goes on
        return;
    }
    addOne<<<1, proto::kCount>>>(in.data(), out.data(), count.data(), proto::kLive, stray, kStrayValue, 0);
}

proto::CheckResult check(const proto::CheckRequest& request) {
    GuardedBuffer<int> in("in", proto::kCount);
    GuardedBuffer<int> out("out", proto::kCount);
    GuardedBuffer<unsigned> count("count", 1);
    std::vector<int> values(proto::kCount);
    for (int i = 0; i < proto::kCount; ++i) values[i] = 3 * i;
    in.upload(values);
    CUDA_TRY(cudaMemset(count.data(), 0, sizeof(unsigned)));
    grading::GuardSet guards;
    guards.add(in);
    guards.add(out);
    guards.add(count);
    grading::InputWatch inputs;
    grading::WorkLeftCheck<unsigned> countSettled("the launch's count");

    const bool queued = request.mode == "queued";
    const std::string where = "addOne (" + request.scenario + ")";
    out.poison();
    if (queued) {
        inputs.clearQueued();
        inputs.keepQueued(in, proto::kCount);
    } else {
        inputs.keep(in, proto::kCount);
    }
    grading::breadcrumb(where);
    launch(request.scenario, in, out, count);
    out.markLive(proto::kLive);
    if (!queued) grading::settleDefaultStream(where);
    countSettled.enqueueRead(count.data(), where);
    if (queued) {
        inputs.enqueueCheck();
        guards.enqueueScan();
    }
    grading::checkLaunch(where);  // the call's one wait when queued
    proto::CheckResult result;
    result.count = countSettled.settled(count.data(), where);
    if (queued) {
        guards.throwIfDamaged(where);
        inputs.throwIfChangedQueued(where);
    } else {
        inputs.check(where);
        guards.check(where);
    }
    result.out = out.download();
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    return grading::runnerMain(argc, argv, {grading::serve<proto::Check>(check)});
}
