// Day 52 exercise: the fork-join diamond.
//
// Finish enqueueDiamond below. The contract is in reference/day52/forkjoin.h:
// the upstream grind on s[0] writes d_mid; branch j (b = kBranchB[j]) reads
// d_mid on stream s[1 + j] and writes d_branch[j]; the join (sumFour) on s[0]
// adds the four branches into d_out. The streams and the events d.fork and
// d.branchDone[j] are made for you (cudaEventDisableTiming). Grade yourself
// with the command in README.md.
//
// Define only what is asked for here. Helpers of your own go in an anonymous
// namespace or are static: the build refuses any other name the file
// defines, and day52.builds names it.
//
// Every call here returns as soon as the work is queued. Nothing orders work
// on different streams except what you say with events:
//   cudaEventRecord(event, stream)        "event = the point this stream has reached"
//   cudaStreamWaitEvent(stream, event, 0) "later work on stream waits for that point"
//
// Pitfalls the gates will catch:
//  - An event captures the stream's work queued BEFORE the record. Record the
//    fork before the upstream launch and it stands for nothing: the branches
//    start at once and read a half-written (or zeroed) d_mid. No API call
//    returns an error. 52.stress holds the upstream back and zeroes d_mid
//    before each run, so this fails every time, not just sometimes.
//  - The join has to wait for all four branches. Forget one and the sum reads
//    a buffer that is still being written: 52.stress holds each branch back
//    in turn and names the run that caught it.
//  - Launching the branches on s[0] gives the right answer with no overlap:
//    52.overlap wants serial / diamond >= 1.3 on a GPU with at least 24 SMs.
//  - Launch with the course's shape: kGrindBlocks blocks of kThreadsPerBlock
//    for grindFma, kSumBlocks for sumFour.
#include "forkjoin.h"
#include "harness/cuda_check.h"
#include "nvtx_range.h"

namespace day52 {

void enqueueDiamond(const Diamond& d) {
    {
        NvtxRange range("upstream");
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
        // TODO: the fork. Which event, which stream, and before or after the
        // launch above?
    }
    {
        NvtxRange range("fork");
        // TODO: for each branch j, make s[1 + j] wait for the fork, launch
        // grindFma from d_mid into d_branch[j] with b = kBranchB[j], and mark
        // the branch's end with d.branchDone[j].
    }
    {
        NvtxRange range("join");
        // TODO: make s[0] wait for every branch, then launch sumFour into d_out.
    }
}

}  // namespace day52
