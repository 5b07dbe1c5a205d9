#include "gates.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "forkjoin_constants.h"
#include "grading_hooks.h"
#include "harness/poison.h"
#include "harness/text.h"
#include "protocol.h"

namespace day52 {

using grading::formatText;
using grading::GateResult;

namespace {

std::string value(float v) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return formatText("%.9g", v) + grading::unwrittenNote(bits);
}
std::string ms(double v) { return formatText("%.3f ms", v); }
std::string ratioText(double r) { return formatText("%.2fx", r); }

std::string kernelName(int kernel) {
    return kernel == kLoggedGrindFma ? "grindFma" : kernel == kLoggedSumFour ? "sumFour" : "kernel " + std::to_string(kernel);
}

std::string targetName(int target) {
    if (target == protocol::kTargetMid) return "d_mid";
    if (target >= protocol::kTargetBranch0 && target < protocol::kTargetBranch0 + kBranches) {
        return "d_branch[" + std::to_string(target - protocol::kTargetBranch0) + "]";
    }
    if (target == protocol::kTargetOut) return "d_out";
    return "a buffer not of the diamond";
}

}  // namespace

bool closeEnough(float got, float want, float relTol) {
    const float scale = want == 0.0f ? 1.0f : std::fabs(want);
    return std::fabs(got - want) <= relTol * scale;  // false for NaN
}

size_t firstMismatch(const std::vector<float>& got, const std::vector<float>& want, float relTol) {
    const size_t n = std::min(got.size(), want.size());
    for (size_t i = 0; i < n; ++i) {
        if (!closeEnough(got[i], want[i], relTol)) return i;
    }
    return n;
}

size_t countMismatches(const std::vector<float>& got, const std::vector<float>& want, float relTol) {
    const size_t n = std::min(got.size(), want.size());
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) count += closeEnough(got[i], want[i], relTol) ? 0 : 1;
    return count;
}

std::string firstDisagreement(const std::vector<float>& got, const std::vector<float>& want) {
    if (got.size() != want.size()) {
        return "got " + std::to_string(got.size()) + " values, want " + std::to_string(want.size());
    }
    const size_t i = firstMismatch(got, want, kRelTolerance);
    if (i == want.size()) return {};
    return "index " + std::to_string(i) + ": got " + value(got[i]) + ", want " + value(want[i]);
}

GateResult checkOuts(const std::string& id, const std::vector<std::vector<float>>& outs,
                     const std::vector<std::vector<float>>& wants) {
    if (outs.size() != wants.size()) {
        return GateResult::fail(id, "got " + std::to_string(outs.size()) + " runs' outputs, want " +
                                        std::to_string(wants.size()));
    }
    for (size_t r = 0; r < outs.size(); ++r) {
        const std::string d = firstDisagreement(outs[r], wants[r]);
        if (d.empty()) continue;
        return GateResult::fail(id, outs.size() > 1 ? "run " + std::to_string(r) + ": " + d : d);
    }
    return GateResult::pass(id);
}

GateResult checkEndsOnStream0(const std::string& id, const std::vector<int32_t>& leftRunning) {
    for (size_t r = 0; r < leftRunning.size(); ++r) {
        if (leftRunning[r] == 0) continue;
        std::string streams;
        for (int k = 0; k <= kBranches; ++k) {
            if (leftRunning[r] & (1 << k)) streams += (streams.empty() ? "s[" : ", s[") + std::to_string(k) + "]";
        }
        return GateResult::fail(id, (leftRunning.size() > 1 ? "run " + std::to_string(r) + ": " : std::string()) +
                                        streams + " still had work once s[0] was done: a caller that waits for "
                                        "s[0] alone reads d_out then, so the diamond must end on s[0]");
    }
    return GateResult::pass(id);
}

GateResult checkLaunches(std::vector<Launch> launches, int run) {
    const char* id = "52.diamond";
    const std::string where = run >= 0 ? "run " + std::to_string(run) + ": " : std::string();
    // A right answer from the course's kernels: each buffer has its launch
    // (an emptied log, or a diamond computed some other way, shows here).
    for (int target = protocol::kTargetMid; target <= protocol::kTargetOut; ++target) {
        const int kernel = target == protocol::kTargetOut ? kLoggedSumFour : kLoggedGrindFma;
        const bool seen = std::any_of(launches.begin(), launches.end(),
                                      [&](const Launch& l) { return l.target == target && l.kernel == kernel; });
        if (!seen) {
            return GateResult::fail(id, where + "no " + kernelName(kernel) + " launch wrote " + targetName(target) +
                                            " (the diamond launches the course's kernels: grindFma into d_mid and "
                                            "each d_branch[j], sumFour into d_out)");
        }
    }
    // In the diamond's order (d_mid, the branches, d_out, anything else), not
    // the order the launches happened to start in: the message is stable.
    const auto rank = [](const Launch& l) { return l.target < 0 ? 1000 : l.target; };
    std::stable_sort(launches.begin(), launches.end(),
                     [&rank](const Launch& a, const Launch& b) { return rank(a) < rank(b); });
    for (const Launch& l : launches) {
        const int64_t wantBlocks = l.kernel == kLoggedSumFour ? kSumBlocks : kGrindBlocks;
        const char* wantName = l.kernel == kLoggedSumFour ? "kSumBlocks" : "kGrindBlocks";
        const std::string launch = where + kernelName(l.kernel) + " into " + targetName(l.target);
        if (l.blocks != wantBlocks || l.threads != kThreadsPerBlock) {
            return GateResult::fail(id, launch + " was launched with " + std::to_string(l.blocks) + " blocks of " +
                                            std::to_string(l.threads) + " threads, want " + std::to_string(wantBlocks) +
                                            " blocks of " + std::to_string(kThreadsPerBlock) + " (the course's shape: " +
                                            wantName + " x kThreadsPerBlock)");
        }
        if (l.elements != static_cast<int64_t>(kElems)) {
            return GateResult::fail(id, launch + " was given " + std::to_string(l.elements) + " elements, want kElems (" +
                                            std::to_string(kElems) + "): each launch of the diamond does its whole "
                                            "buffer's work");
        }
    }
    return GateResult::pass(id);
}

GateResult checkStress(const std::vector<StressRun>& runs, const StressHold& hold) {
    const char* id = "52.stress";
    if (runs.empty()) return GateResult::fail(id, "no stress runs were reported");
    std::string first;
    std::vector<size_t> wrong;
    for (size_t r = 0; r < runs.size(); ++r) {
        const std::string d = firstDisagreement(runs[r].out, runs[r].want);
        if (d.empty()) continue;
        wrong.push_back(r);
        if (first.empty()) {
            first = "run " + std::to_string(r) + " (upstream held " + formatText("%g", hold.upstreamMs) +
                    " ms, branch " + std::to_string(runs[r].heldBranch) + " held " + formatText("%g", hold.branchMs) +
                    " ms): " + d;
        }
    }
    if (wrong.empty()) return GateResult::pass(id);
    std::string which;
    if (wrong.size() < runs.size()) {
        for (size_t r : wrong) which += (which.empty() ? wrong.size() == 1 ? ": run " : ": runs " : ", ") + std::to_string(r);
    }
    return GateResult::fail(id, first + " (" + std::to_string(wrong.size()) + " of " + std::to_string(runs.size()) +
                                    " runs wrong" + which + ")");
}

GateResult checkNoTiming(const std::vector<ElapsedProbe>& probes) {
    const char* id = "52.no_timing";
    if (probes.empty()) return GateResult::fail(id, "no cudaEventElapsedTime probe was reported");
    for (const ElapsedProbe& p : probes) {
        const std::string call = "cudaEventElapsedTime(" + p.events + ")";
        if (p.error != "cudaErrorInvalidResourceHandle") {
            return GateResult::fail(id, call + ": expected cudaErrorInvalidResourceHandle, got " + p.error);
        }
        if (p.slotAfterClear != "cudaSuccess") {
            return GateResult::fail(id, call + ": the error slot still held " + p.slotAfterClear +
                                            " after cudaGetLastError() cleared it");
        }
    }
    return GateResult::pass(id);
}

OverlapVerdict checkOverlap(double serialMs, double diamondMs, int smCount) {
    OverlapVerdict v;
    v.result = GateResult::pass("52.overlap");
    v.gated = smCount >= kMinSmsForGate;
    const std::string sms = " on " + std::to_string(smCount) + " SMs";
    const GateResult times = grading::checkPositiveTimes(v.result.id, {{"the serial time", serialMs}, {"the diamond time", diamondMs}});
    if (!times.passed) {
        v.result = GateResult::fail(v.result.id, times.message + sms);
        v.note = v.result.message;
        return v;
    }
    v.ratio = serialMs / diamondMs;
    const std::string figures = "serial " + ms(serialMs) + " / diamond " + ms(diamondMs) + " = " + ratioText(v.ratio);
    if (!v.gated) {
        v.note = figures + sms + ": reported, not gated (the gate needs >= " + std::to_string(kMinSmsForGate) +
                 " SMs, room for the upstream and all four branches at once)";
        return v;
    }
    v.note = figures + sms;
    if (v.ratio < kMinOverlapRatio) {
        v.result = GateResult::fail(v.result.id, figures + sms + ", want >= " + ratioText(kMinOverlapRatio) +
                                                     ": the branches are not overlapping");
    }
    return v;
}

GateResult checkTimedDiamond(const std::vector<float>& got, const std::vector<float>& want, const std::string& shape) {
    const std::string d = firstDisagreement(got, want);
    if (d.empty()) return GateResult::pass("52.overlap");
    return GateResult::fail("52.overlap", shape + "'s first timed run is wrong (" + d + "), so its time is not graded");
}

GateResult checkTimedRuns(const std::string& shape, const std::vector<int64_t>& runFirstDifference, int runs) {
    const char* id = "52.overlap";
    if (runFirstDifference.size() != static_cast<size_t>(runs)) {
        return GateResult::fail(id, "the runner checked " + std::to_string(runFirstDifference.size()) + " of " + shape +
                                        "'s " + std::to_string(runs) + " timed runs");
    }
    for (int r = 0; r < runs; ++r) {
        if (runFirstDifference[r] < 0) continue;
        return GateResult::fail(id, shape + "'s timed run " + std::to_string(r) + ": index " +
                                        std::to_string(runFirstDifference[r]) + " is not the course's enqueueSerial " +
                                        "of the run's own input: the run did not do its own work, so no time is graded");
    }
    return GateResult::pass(id);
}

GateResult checkClockedDiamond(const std::vector<double>& got, const std::vector<double>& want) {
    const char* id = "52.overlap";
    if (got.size() != want.size()) {
        return GateResult::fail(id, "enqueueDiamond's clocked call proved " + std::to_string(got.size()) + " of " +
                                        std::to_string(want.size()) + " runs");
    }
    for (size_t r = 0; r < got.size(); ++r) {
        if (std::fabs(got[r] - want[r]) <= kClockedProofTolerance * std::fabs(want[r])) continue;
        return GateResult::fail(id, formatText("enqueueDiamond's clocked run %zu of %zu left a d_out whose squares "
                                               "sum to %.9g, the course's enqueueSerial's on the same input %.9g "
                                               "(relative tolerance %g): the timed runs were not all done",
                                               r, got.size(), got[r], want[r], kClockedProofTolerance));
    }
    return GateResult::pass(id);
}

}  // namespace day52
