# Day 52's planted bugs: each pitfall the exercise and grading.md name, as an
# edit of the course's code or the solution, held to the gate that must catch
# it on the graded inputs (see grading_plant in cmake/Grading.cmake).
# Instructor-only: the student kit leaves this file out.

grading_plant(record_before_upstream
  WHAT "the course's broken order: the fork is recorded before the upstream launch, so it stands for nothing and the branches read the zeroed d_mid"
  EDIT solution/diamond.cu
  FIND [[        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
        // After the launch: the event stands for "s[0] has done the upstream".
        CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));]]
  REPLACE [[        CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));  // too early: s[0] holds nothing of this diamond yet
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);]]
  FAILS 52.stress
  EXPECT [[run 0 \(upstream held 20 ms, branch 0 held 20 ms\): index [0-9]+: got [-+0-9.e]+, want [-+0-9.e]+ \(8 of 8 runs wrong\)]])

grading_plant(join_forgets_branch
  WHAT "the join waits for branches 0 to 2 only (an off-by-one in the loop bound): the sum reads branch 3 while it is held"
  EDIT solution/diamond.cu
  FIND [[        for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));]]
  REPLACE [[        for (int j = 0; j < kBranches - 1; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));]]
  # Exactly the runs that hold branch 3 are wrong: in the others the join
  # waits for a held branch, long after branch 3 has finished.
  FAILS 52.stress
  EXPECT [[run 3 \(upstream held 20 ms, branch 3 held 20 ms\): index [0-9]+: got [-+0-9.e]+, want [-+0-9.e]+ \(2 of 8 runs wrong: runs 3, 7\)]])

grading_plant(join_on_legacy_stream
  WHAT "the join launched on the legacy default stream with no waits: blocking streams would have ordered it after every branch, the course's non-blocking ones do not"
  EDIT solution/diamond.cu
  FIND [[        for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));
        sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(]]
  REPLACE [[        // No waits, and stream 0: the legacy default stream.
        sumFour<<<kSumBlocks, kThreadsPerBlock, 0, 0>>>(]]
  FAILS 52.stress
  EXPECT [[run 0 \(upstream held 20 ms, branch 0 held 20 ms\): index [0-9]+: got [-+0-9.e]+, want [-+0-9.e]+ \(8 of 8 runs wrong\)]])

grading_plant(all_on_stream0
  WHAT "the branch launches name s[0]: every event is there and the answer is right, but nothing overlaps"
  EDIT solution/diamond.cu
  FIND [[0, d.s[1 + j]>>>]]
  REPLACE [[0, d.s[0]>>>]]
  # Timed (holds the GPU exclusively); gated on devices with at least 24 SMs.
  FAILS 52.overlap
  EXPECT [[serial [0-9.]+ ms / diamond [0-9.]+ ms = [0-9.]+x on [0-9]+ SMs, want >= 1\.30x: the branches are not overlapping]]
  PASSES 52.diamond 52.stress)

grading_plant(branch_full_grid
  WHAT "the branches launched with a full grid (kSumBlocks blocks): the answer is right, the course's shape is not, and no output shows it"
  EDIT solution/diamond.cu
  FIND [[grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[1 + j]>>>]]
  REPLACE [[grindFma<<<kSumBlocks, kThreadsPerBlock, 0, d.s[1 + j]>>>]]
  FAILS 52.diamond
  EXPECT [[grindFma into d_branch\[0\] was launched with 4096 blocks of 256 threads, want 8 blocks of 256 \(the course's shape: kGrindBlocks x kThreadsPerBlock\)]]
  PASSES 52.stress)

grading_plant(sum_with_grind_shape
  WHAT "the join launched with the grind's shape (kGrindBlocks blocks): sumFour has one thread per element, so all but the first 2048 are never written"
  EDIT solution/diamond.cu
  FIND [[sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>]]
  REPLACE [[sumFour<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>]]
  FAILS 52.diamond
  EXPECT [[index 2048: got -26711958 \(never written: still the runner's poison\), want [-+0-9.e]+]])

grading_plant(timing_events
  WHAT "the course's setup creates the dependency events with plain cudaEventCreate: they still order the work, but they carry timestamps"
  EDIT setup.cu
  FIND [[    CUDA_TRY(cudaEventCreateWithFlags(&d.fork, cudaEventDisableTiming));
    for (cudaEvent_t& e : d.branchDone) CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));]]
  REPLACE [[    CUDA_TRY(cudaEventCreate(&d.fork));  // the flag is missing
    for (cudaEvent_t& e : d.branchDone) CUDA_TRY(cudaEventCreate(&e));]]
  FAILS 52.no_timing
  EXPECT [[cudaEventElapsedTime\(fork, branchDone\[0\]\): expected cudaErrorInvalidResourceHandle, got cudaSuccess]]
  PASSES 52.diamond)

grading_plant(serial_reads_input
  WHAT "the course's serial version grinds each branch from d_in instead of d_mid"
  EDIT kernels.cu
  FIND [=[0, d.s[0]>>>(d.d_mid, d.d_branch[j]]=]
  REPLACE [=[0, d.s[0]>>>(d.d_in, d.d_branch[j]]=]
  FAILS 52.serial
  EXPECT [[index 0: got [-+0-9.e]+, want [-+0-9.e]+]])

grading_plant(join_on_branch_stream
  WHAT "the join waits for every branch but is queued on s[4], not s[0]: d_out is right once the whole device is done, but not when s[0] is, which is all a caller may wait for"
  EDIT solution/diamond.cu
  FIND [[        for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));
        sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(]]
  REPLACE [[        for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[kBranches], d.branchDone[j], 0));
        sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[kBranches]>>>(]]
  # Read once s[0] is done, d_out still holds its poison; should the join
  # have finished by then, s[4] was still busy when s[0] was done.
  FAILS 52.diamond
  EXPECT [[(index [0-9]+: got -26711958 \(never written: still the runner's poison\)|s\[4\] still had work once s\[0\] was done)]])

grading_plant(work_left_on_branch
  WHAT "branch 0 grinds its buffer 16 more times after recording branchDone[0]: d_out is right, but work is left running on s[1] after the diamond's end on s[0]"
  EDIT solution/diamond.cu
  FIND [[            CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));]]
  REPLACE [[            CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));
            for (int again = 0; j == 0 && again < 16; ++again) {  // the same values, after the event the join waits for
                grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[1]>>>(d.d_mid, d.d_branch[0], kA, kBranchB[0],
                                                                        kElems, kIters);
            }]]
  # Work left running is seen only while it runs: 16 grinds outlast a host
  # delayed by a loaded machine, and a run it outlived anyway is retried.
  FAILS 52.diamond ATTEMPTS 3
  EXPECT [[s\[1\] still had work once s\[0\] was done: a caller that waits for s\[0\] alone reads d_out then]])
