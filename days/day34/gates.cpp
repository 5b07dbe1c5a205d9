#include "day34_gates.h"

#include "day34_reference.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace day34 {

using grading::GateResult;

namespace {

std::string cellName(size_t index, int n) {
    const size_t stride = static_cast<size_t>(n);
    return "row " + std::to_string(index / stride) + ", col " + std::to_string(index % stride);
}

std::string formatR(double r) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.3f", r);
    return text;
}

std::string sizeProblem(const std::string& what, size_t got, int n) {
    const size_t want = static_cast<size_t>(n) * static_cast<size_t>(n);
    if (got == want) return {};
    return what + " has " + std::to_string(got) + " cells, want " + std::to_string(want) + " (" +
           std::to_string(n) + " x " + std::to_string(n) + ")";
}

}  // namespace

std::string formatValue(double v) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.9g", v);
    return text;
}

GateResult checkStencil(const std::string& kernel, int steps, int n, const std::vector<float>& got,
                        const std::vector<double>& want, double relTolerance) {
    const char* id = "34.stencil";
    const std::string prefix = kernel + " after " + std::to_string(steps) + " steps";
    if (const std::string bad = sizeProblem(prefix + ": the grid", got.size(), n); !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    if (want.size() != got.size()) return GateResult::fail(id, sizeProblem("the reference", want.size(), n));
    for (size_t i = 0; i < got.size(); ++i) {
        const double scale = want[i] == 0.0 ? 1.0 : std::fabs(want[i]);
        // Written so that NaN fails: every comparison with NaN is false.
        if (!(std::fabs(static_cast<double>(got[i]) - want[i]) <= relTolerance * scale)) {
            return GateResult::fail(id, kernel + " wrong after " + std::to_string(steps) + " steps at " +
                                            cellName(i, n) + ": got " + formatValue(got[i]) + ", want " +
                                            formatValue(want[i]));
        }
    }
    return GateResult::pass(id);
}

GateResult checkRing(const std::string& kernel, int steps, int n, const std::vector<float>& got,
                     const std::vector<float>& initial) {
    const char* id = "34.ring";
    const std::string prefix = kernel + " after " + std::to_string(steps) + " steps";
    if (const std::string bad = sizeProblem(prefix + ": the grid", got.size(), n); !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    if (initial.size() != got.size()) return GateResult::fail(id, sizeProblem("the initial grid", initial.size(), n));
    // Row-major order, so "first" means the same thing as in the other gates.
    for (size_t i = 0; i < got.size(); ++i) {
        if (onRing(i, n) && !(got[i] == initial[i])) {
            return GateResult::fail(id, kernel + " moved a boundary cell after " + std::to_string(steps) +
                                            " steps: index " + std::to_string(i) + " (" + cellName(i, n) +
                                            "): got " + formatValue(got[i]) + ", want " + formatValue(initial[i]));
        }
    }
    return GateResult::pass(id);
}

GateResult checkCopyPolicy(int n, const std::vector<float>& never, const std::vector<float>& copied, int copyEvery) {
    const char* id = "34.copy_policy";
    const std::string policy =
        copyEvery == 1 ? "copied back every step" : "copied back every " + std::to_string(copyEvery) + " steps";
    if (const std::string bad = sizeProblem("the never-copied grid", never.size(), n); !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    if (const std::string bad = sizeProblem("the grid " + policy, copied.size(), n); !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    for (size_t i = 0; i < never.size(); ++i) {
        uint32_t a = 0;
        uint32_t b = 0;
        std::memcpy(&a, &copied[i], sizeof(a));
        std::memcpy(&b, &never[i], sizeof(b));
        if (a != b) {
            return GateResult::fail(id, "copy policy changed the answer at index " + std::to_string(i) + " (" +
                                            cellName(i, n) + "): " + formatValue(copied[i]) + " with the grid " +
                                            policy + ", " + formatValue(never[i]) + " never copied back");
        }
    }
    return GateResult::pass(id);
}

GateResult checkMaxPrinciple(double r, float maxAbs, long long nonFinite, int steps, float initialMax, float slack) {
    const char* id = "34.max_principle";
    const float bound = initialMax * (1.0f + slack);
    if (nonFinite == 0 && maxAbs <= bound) return GateResult::pass(id);
    std::string message = "maximum principle broken at r = " + formatR(r) + ": max abs(u) is " + formatValue(maxAbs);
    if (nonFinite > 0) message += " and " + std::to_string(nonFinite) + " cells are not finite";
    message += " after " + std::to_string(steps) + " steps, and it started at " + formatValue(initialMax);
    return GateResult::fail(id, message);
}

GateResult checkUnstable(double r, float maxAbs, long long nonFinite, int steps, float initialMax) {
    const char* id = "34.unstable";
    if (maxAbs > initialMax) return GateResult::pass(id);
    std::string message = "no growth past the bound at r = " + formatR(r) + ": max abs(u) is " + formatValue(maxAbs);
    if (nonFinite > 0) message += " (and " + std::to_string(nonFinite) + " cells are not finite)";
    message += " after " + std::to_string(steps) + " steps, not above the initial max " + formatValue(initialMax) +
               "; a correct step multiplies the checkerboard by |1 - 8r| = " + formatR(std::fabs(1.0 - 8.0 * r)) +
               " every step";
    return GateResult::fail(id, message);
}

GateResult checkTimings(const std::vector<std::pair<std::string, double>>& figuresMs) {
    return grading::checkPositiveTimes("34.timing", figuresMs);
}

}  // namespace day34
