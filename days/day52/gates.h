#pragma once
// The day 52 gates (grading.md, "Day 52"). Plain host functions over what the
// runner returned; each names the first disagreement.
#include <cstddef>
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

// 52.diamond: the submitted diamond's out against the host reference.
grading::GateResult checkDiamond(const std::vector<float>& got, const std::vector<float>& want);
// 52.serial: the serial version's out against the same reference.
grading::GateResult checkSerial(const std::vector<float>& got, const std::vector<float>& want);

struct StressRun {
    std::vector<float> out;
    int heldBranch = 0;
};
struct StressHold {
    double upstreamMs = 0.0;
    double branchMs = 0.0;
};
// 52.stress: every run right; names the first wrong run, its held branch,
// the index, got and want, and how many runs were wrong.
grading::GateResult checkStress(const std::vector<StressRun>& runs, const std::vector<float>& want,
                                const StressHold& hold);

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
grading::GateResult checkTimedDiamond(const std::vector<float>& got, const std::vector<float>& want);

}  // namespace day52
