#pragma once
// A gate decides pass or fail for one property of a kernel's output. Gates are
// plain host functions over host data, so each one is tested on planted
// discrepancies without a GPU. A failing gate's message names the first
// disagreement (where, got, want), never only "mismatch".
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/timing_stats.h"

namespace grading {

struct GateResult {
    std::string id;  // "<prefix>.<gate>", as the day declares it and grading.md names it
    bool passed = true;
    std::string message;  // empty when passed, except for a score's reasons
    // A scored gate's verdict (GateSpec::scored): the fraction of its points
    // earned, 0 to 1, with `message` saying why.
    std::optional<double> score;

    static GateResult pass(std::string id) { return {std::move(id), true, {}, {}}; }
    static GateResult fail(std::string id, std::string message) {
        return {std::move(id), false, std::move(message), {}};
    }
    static GateResult scored(std::string id, double fraction, std::string why) {
        return {std::move(id), true, std::move(why), fraction};
    }
};

// The "<day>.timing" rule: every figure (name, milliseconds) is a real,
// positive time; the message names the first that is not.
GateResult checkPositiveTimes(std::string id, const std::vector<std::pair<std::string, double>>& figuresMs);

// A speed gate's ramp: full marks at no more than `fullAt` times the
// reference's time (the CS149 checkers' 1.2x), none at `zeroAt` times or
// more, and between them a share that falls linearly in log(ratio): being
// 2x slower costs the same wherever it starts, so half the points sit at the
// geometric middle (about 3.5x), not at 5.6x.
struct SpeedRamp {
    double fullAt = 1.2;
    double zeroAt = 10.0;
    double score(double ratio) const;
};

// The student's and the reference's runs scored on `ramp` by their medians;
// the message names both medians, their IQRs, how they were timed (`timed`:
// "timed interleaved", or the class's instructor times), the ratio and the
// score, "<timed>: <ratio>x, <percent>% of the points".
GateResult scoreSpeed(std::string id, const std::string& what, const TimingStats& student,
                      const TimingStats& reference, const SpeedRamp& ramp = {},
                      const std::string& timed = "timed interleaved");

}  // namespace grading
