#include "harness/gate.h"

#include <cmath>
#include <sstream>

#include "harness/text.h"

namespace grading {

GateResult checkPositiveTimes(std::string id, const std::vector<std::pair<std::string, double>>& figuresMs) {
    if (figuresMs.empty()) return GateResult::fail(std::move(id), "no timings were reported");
    for (const auto& [name, ms] : figuresMs) {
        if (!(ms > 0.0) || !std::isfinite(ms)) {
            std::ostringstream s;
            s << name << " is not a positive time: " << ms << " ms";
            return GateResult::fail(std::move(id), s.str());
        }
    }
    return GateResult::pass(std::move(id));
}

double SpeedRamp::score(double ratio) const {
    if (!(ratio > fullAt)) return 1.0;  // NaN never gets here: callers check the times first
    if (ratio >= zeroAt) return 0.0;
    return std::log(zeroAt / ratio) / std::log(zeroAt / fullAt);
}

GateResult scoreSpeed(std::string id, const std::string& what, const TimingStats& student,
                      const TimingStats& reference, const SpeedRamp& ramp, const std::string& timed) {
    if (!(student.medianMs > 0.0f) || !(reference.medianMs > 0.0f) || !std::isfinite(student.medianMs) ||
        !std::isfinite(reference.medianMs)) {
        return GateResult::fail(std::move(id), formatText("%s: no ratio: the student's median is %g ms, the reference's %g ms",
                                                          what.c_str(), student.medianMs, reference.medianMs));
    }
    const double ratio = static_cast<double>(student.medianMs) / reference.medianMs;
    const double score = ramp.score(ratio);
    return GateResult::scored(
        std::move(id), score,
        formatText("%s: %.4f ms (IQR %.4f, %zu runs) against the instructor's %.4f ms (IQR %.4f, %zu runs), %s: "
                   "%.2fx, %.0f%% of the points (full at <= %.1fx, none at >= %.0fx)",
                   what.c_str(), student.medianMs, student.iqrMs(), student.samplesMs.size(), reference.medianMs,
                   reference.iqrMs(), reference.samplesMs.size(), timed.c_str(), ratio, 100.0 * score, ramp.fullAt,
                   ramp.zeroAt));
}

}  // namespace grading
