#pragma once
// A gate decides pass or fail for one property of a kernel's output. Gates are
// plain host functions over host data, so each one is tested on planted
// discrepancies without a GPU. A failing gate's message names the first
// disagreement (where, got, want), never only "mismatch".
#include <string>
#include <utility>
#include <vector>

namespace grading {

struct GateResult {
    std::string id;  // e.g. "38.distances", as in grading.md
    bool passed = true;
    std::string message;  // empty when passed

    static GateResult pass(std::string id) { return {std::move(id), true, {}}; }
    static GateResult fail(std::string id, std::string message) {
        return {std::move(id), false, std::move(message)};
    }
};

// The "<day>.timing" rule: every figure (name, milliseconds) is a real,
// positive time; the message names the first that is not.
GateResult checkPositiveTimes(std::string id, const std::vector<std::pair<std::string, double>>& figuresMs);

}  // namespace grading
