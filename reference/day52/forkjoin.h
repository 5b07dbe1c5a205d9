#pragma once
// Day 52: a fork-join diamond across five streams. One upstream grind on
// s[0], four branch grinds on s[1]..s[4] reading its output, one join on s[0]
// summing the branches. Events are the only ordering between the streams.
//
// Who implements what:
//   reference/day52/kernels.cu           grindFma, sumFour, enqueueSerial, enqueueBroken
//   reference/day52/setup.cu             createDiamond, destroyDiamond
//   reference/day52/solution/diamond.cu  enqueueDiamond (the instructor's answer)
//   exercises/day52/diamond.cu      enqueueDiamond (the student's)
// The day 52 runner (harness/day52/runner.cu) owns the buffers and calls these.
#include <cuda_runtime.h>

#include <cstddef>

#include "forkjoin_constants.h"

namespace day52 {

// out[i] = x after `iters` steps of x = fmaf(a, x, b), starting from in[i].
// Grid-stride: any grid covers all n elements (the course launches
// kGrindBlocks blocks of kThreadsPerBlock).
__global__ void grindFma(const float* __restrict__ in, float* __restrict__ out, float a, float b,
                         size_t n, int iters);

// out[i] = b0[i] + b1[i] + b2[i] + b3[i], added left to right. One thread per
// element: launch kSumBlocks blocks of kThreadsPerBlock.
__global__ void sumFour(const float* __restrict__ b0, const float* __restrict__ b1,
                        const float* __restrict__ b2, const float* __restrict__ b3,
                        float* __restrict__ out, size_t n);

// Everything the enqueue functions share. Plain data.
struct Diamond {
    cudaStream_t s[1 + kBranches];      // non-blocking streams; s[0] carries the upstream and the join
    cudaEvent_t fork;                   // for "the upstream is done"
    cudaEvent_t branchDone[kBranches];  // for "branch j is done"
    const float* d_in;                  // kElems floats each
    float* d_mid;                       // upstream output, every branch's input
    float* d_branch[kBranches];
    float* d_out;
};

// Creates d's five streams, non-blocking (the legacy default stream never
// orders them), and its fork and branchDone events, with
// cudaEventDisableTiming (they order work; they time nothing).
// Leaves the buffer pointers alone. On a CUDA error it throws
// grading::CudaError; whatever it had created is still in d, and
// destroyDiamond releases it.
void createDiamond(Diamond& d);
// Destroys every non-null stream and event in d and nulls it; never throws.
// Returns the first error met (cudaSuccess when none).
cudaError_t destroyDiamond(Diamond& d);

// The diamond: upstream (b = kUpstreamB) on s[0], branch j (b = kBranchB[j])
// on s[1 + j], the join on s[0]. Returns once everything is queued.
//
// What a caller may rely on, and what enqueueDiamond may not:
//  - Done means s[0] is done: a caller may read d_out as soon as it has
//    waited for s[0] alone (cudaStreamSynchronize(d.s[0])), so the join ends
//    the diamond on s[0] and nothing of it is still queued or running on
//    s[1]..s[4] by then.
//  - The streams are non-blocking and the events disable timing; nothing
//    else orders the streams. d_mid, d_branch[j] and d_out may hold anything
//    on entry (d_mid zeroes, the rest garbage).
//  - What it may use: the CUDA runtime API (graphs, cudaLaunchKernelEx,
//    events of its own), libcu++ and the standard library. The file defines
//    enqueueDiamond and nothing else with external linkage (helpers static
//    or in an anonymous namespace).
//  - Every call may bring another Diamond: other buffers, streams and events
//    than the call before, while the earlier ones still exist. Keep nothing
//    from one call for the next (no cached answer, no captured graph).
//  - Launch shapes are the course's: grindFma kGrindBlocks x
//    kThreadsPerBlock, sumFour kSumBlocks x kThreadsPerBlock.
//  - Timed calls are calls like any other (the same context flags); each
//    timed run gets its own input and its output is checked.
void enqueueDiamond(const Diamond& d);
// The same nine launches, all on s[0], no events.
void enqueueSerial(const Diamond& d);
// The course's trap: the diamond with the fork recorded (into forkTooEarly)
// before the upstream launch. The branches race the upstream.
void enqueueBroken(const Diamond& d, cudaEvent_t forkTooEarly);

}  // namespace day52
