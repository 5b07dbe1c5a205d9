#pragma once
// The day 52 gates (grading.md, "Day 52"): plain host functions over what a
// runner returned and the host references; each names the first
// disagreement. day.cpp declares which cases each one runs on.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/gate.h"

namespace day52 {

// |got - want| <= relTol * scale, scale = |want| (1 where want is 0). NaN on
// either side is never close.
bool closeEnough(float got, float want, float relTol);
// The first index that is not closeEnough; min(got.size(), want.size())
// when none is (sizes are the caller's to check).
size_t firstMismatch(const std::vector<float>& got, const std::vector<float>& want, float relTol);
// How many indices are not closeEnough (the race observation's count).
size_t countMismatches(const std::vector<float>& got, const std::vector<float>& want, float relTol);
// "" when the sizes and every value agree within kRelTolerance; otherwise
// "index I: got G, want W", G noted when it is still the runner's poison.
std::string firstDisagreement(const std::vector<float>& got, const std::vector<float>& want);

// 52.diamond and 52.serial: each run's out against its own host reference
// (outs[r] against wants[r]); with several runs the message names the run.
grading::GateResult checkOuts(const std::string& id, const std::vector<std::vector<float>>& outs,
                              const std::vector<std::vector<float>>& wants);

// 52.diamond and 52.stress: no run left work on another stream once s[0]
// was done (leftRunning[r]: bit k for s[k], as the runner reports it).
grading::GateResult checkEndsOnStream0(const std::string& id, const std::vector<int32_t>& leftRunning);

// One launch from the kernels' log (grading_hooks.h, protocol.h).
struct Launch {
    int kernel = 0;  // kLoggedGrindFma or kLoggedSumFour
    int target = 0;  // protocol::kTarget*
    int64_t blocks = 0;
    int64_t threads = 0;   // per block
    int64_t elements = 0;  // the n it was given
};
// 52.diamond, from one run's launch log: the course's kernels wrote the
// diamond's buffers (grindFma d_mid and every d_branch[j], sumFour d_out),
// and every launch has the course's shape (grindFma kGrindBlocks x
// kThreadsPerBlock, sumFour kSumBlocks x kThreadsPerBlock) and the whole
// buffer's work (kElems elements: a launch given none would log the shape
// while other code did the work), the first wrong one named in the
// diamond's buffer order. `run` names the run when >= 0.
grading::GateResult checkLaunches(std::vector<Launch> launches, int run);

struct StressRun {
    std::vector<float> out;
    std::vector<float> want;  // the host reference for this run's input
    int heldBranch = 0;
};
struct StressHold {
    double upstreamMs = 0.0;
    double branchMs = 0.0;
};
// 52.stress: every run right; names the first wrong run, its held branch,
// the index, got and want, and how many runs (which, when not all) were wrong.
grading::GateResult checkStress(const std::vector<StressRun>& runs, const StressHold& hold);

struct ElapsedProbe {
    std::string events;          // e.g. "fork, branchDone[0]"
    std::string error;           // what cudaEventElapsedTime returned (error name)
    std::string slotAfterClear;  // cudaGetLastError() after the clearing call
};
// 52.no_timing: every probe got cudaErrorInvalidResourceHandle and left the
// error slot clear.
grading::GateResult checkNoTiming(const std::vector<ElapsedProbe>& probes);

// 52.overlap. Gated only on devices with >= kMinSmsForGate SMs; otherwise
// `gated` is false and `note` says the ratio and why it is not gated.
struct OverlapVerdict {
    bool gated = true;
    grading::GateResult result;
    double ratio = 0.0;
    std::string note;
};
OverlapVerdict checkOverlap(double serialMs, double diamondMs, int smCount);
// A time only means something for a right answer: 52.overlap fails first
// when the timed diamond's out is wrong.
// `shape` names the enqueue function timed ("enqueueDiamond").
grading::GateResult checkTimedDiamond(const std::vector<float>& got, const std::vector<float>& want,
                                      const std::string& shape = "enqueueDiamond");
// Every timed run did its own work: runFirstDifference[r] (the runner's
// device check, protocol.h) is -1 for each of `runs` runs.
grading::GateResult checkTimedRuns(const std::string& shape, const std::vector<int64_t>& runFirstDifference,
                                   int runs);

// 52.overlap: each clocked run of enqueueDiamond proved its work: got[r],
// the sum of squares of its d_out, is within kClockedProofTolerance
// (relative) of want[r], the course's enqueueSerial's on the same input.
constexpr double kClockedProofTolerance = 1e-4;
grading::GateResult checkClockedDiamond(const std::vector<double>& got, const std::vector<double>& want);

}  // namespace day52
