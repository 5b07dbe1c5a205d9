#include "day52_gates.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "forkjoin_constants.h"

namespace day52 {

using grading::GateResult;

namespace {

std::string formatFloat(double v, const char* format) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string value(float v) { return formatFloat(v, "%.9g"); }
std::string ms(double v) { return formatFloat(v, "%.3f") + " ms"; }
std::string ratioText(double r) { return formatFloat(r, "%.2f") + "x"; }

// "" when every value agrees; otherwise "index I: got G, want W".
std::string firstDisagreement(const std::vector<float>& got, const std::vector<float>& want) {
    if (got.size() != want.size()) {
        return "got " + std::to_string(got.size()) + " values, want " + std::to_string(want.size());
    }
    const size_t i = firstMismatch(got, want, kRelTolerance);
    if (i == want.size()) return {};
    return "index " + std::to_string(i) + ": got " + value(got[i]) + ", want " + value(want[i]);
}

GateResult compareOut(const char* id, const std::vector<float>& got, const std::vector<float>& want) {
    const std::string d = firstDisagreement(got, want);
    return d.empty() ? GateResult::pass(id) : GateResult::fail(id, d);
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

GateResult checkDiamond(const std::vector<float>& got, const std::vector<float>& want) {
    return compareOut("52.diamond", got, want);
}

GateResult checkSerial(const std::vector<float>& got, const std::vector<float>& want) {
    return compareOut("52.serial", got, want);
}

GateResult checkStress(const std::vector<StressRun>& runs, const std::vector<float>& want, const StressHold& hold) {
    const char* id = "52.stress";
    if (runs.empty()) return GateResult::fail(id, "no stress runs were reported");
    std::string first;
    size_t wrong = 0;
    for (size_t r = 0; r < runs.size(); ++r) {
        const std::string d = firstDisagreement(runs[r].out, want);
        if (d.empty()) continue;
        ++wrong;
        if (first.empty()) {
            first = "run " + std::to_string(r) + " (upstream held " + formatFloat(hold.upstreamMs, "%g") +
                    " ms, branch " + std::to_string(runs[r].heldBranch) + " held " +
                    formatFloat(hold.branchMs, "%g") + " ms): " + d;
        }
    }
    if (wrong == 0) return GateResult::pass(id);
    return GateResult::fail(id, first + " (" + std::to_string(wrong) + " of " + std::to_string(runs.size()) +
                                    " runs wrong)");
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
    for (const auto& [name, t] : {std::pair<const char*, double>{"serial", serialMs}, {"diamond", diamondMs}}) {
        if (!(t > 0.0) || !std::isfinite(t)) {
            v.result = GateResult::fail(v.result.id, std::string("the ") + name + " time is not a positive time: " +
                                                         formatFloat(t, "%g") + " ms" + sms);
            v.note = v.result.message;
            return v;
        }
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

GateResult checkTimedDiamond(const std::vector<float>& got, const std::vector<float>& want) {
    const std::string d = firstDisagreement(got, want);
    if (d.empty()) return GateResult::pass("52.overlap");
    return GateResult::fail("52.overlap", "the timed diamond's result is wrong (" + d + "), so its time is not graded");
}

}  // namespace day52
