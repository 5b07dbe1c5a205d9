#include "gates.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "harness/poison.h"
#include "reference.h"

namespace day34 {

using grading::GateResult;

namespace {

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

uint32_t bitsOf(float v) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof(bits));
    return bits;
}

// " (never written: still the runner's poison)" when `v` is the poison word.
const char* poisonNote(float v) { return grading::unwrittenNote(bitsOf(v)); }

std::string stepsText(int steps) { return std::to_string(steps) + (steps == 1 ? " step" : " steps"); }

std::string policyText(int copyEvery) {
    return copyEvery == 1 ? "copied back every step" : "copied back every " + std::to_string(copyEvery) + " steps";
}

}  // namespace

bool cellMatches(float got, double want, double relTolerance) {
    const double scale = want == 0.0 ? 1.0 : std::fabs(want);
    // Written so that NaN fails: every comparison with NaN is false (inf - want is inf).
    return std::fabs(static_cast<double>(got) - want) <= relTolerance * scale;
}

GateResult checkStencil(const std::string& kernel, int steps, int n, const std::vector<float>& got,
                        const std::vector<double>& want, double relTolerance) {
    const char* id = "34.stencil";
    if (const std::string bad = sizeProblem(kernel + " after " + stepsText(steps) + ": the grid", got.size(), n);
        !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    if (want.size() != got.size()) return GateResult::fail(id, sizeProblem("the reference", want.size(), n));
    for (size_t i = 0; i < got.size(); ++i) {
        if (!cellMatches(got[i], want[i], relTolerance)) {
            std::string message = kernel + " wrong after " + stepsText(steps) + " at " + cellName(i, n) + ": got " +
                                  formatValue(got[i]) + ", want " + formatValue(want[i]) + poisonNote(got[i]);
            // A skipped cell poisons its neighbours a step later, so the first
            // wrong cell may be one that was written: name the skipped ones too.
            size_t unwritten = 0;
            size_t first = got.size();
            for (size_t k = 0; k < got.size(); ++k) {
                if (bitsOf(got[k]) != grading::kPoisonWord) continue;
                if (unwritten++ == 0) first = k;
            }
            if (first == i && unwritten > 1) {
                message += "; " + std::to_string(unwritten) + " cells in all were never written";
            } else if (first != i && unwritten > 0) {
                message += "; " + std::to_string(unwritten) + " cells were never written (still the runner's poison), "
                           "the first at " + cellName(first, n);
            }
            return GateResult::fail(id, message);
        }
    }
    return GateResult::pass(id);
}

GateResult checkRing(const std::string& kernel, int steps, int n, const std::vector<float>& got,
                     const std::vector<float>& initial) {
    if (const std::string bad = sizeProblem(kernel + " after " + stepsText(steps) + ": the grid", got.size(), n);
        !bad.empty()) {
        return GateResult::fail("34.ring", bad);
    }
    std::vector<float> ring(ringCells(n));
    for (size_t k = 0; k < ring.size(); ++k) ring[k] = got[ringCell(k, n)];
    return checkRingCells(kernel, steps, n, ring, initial);
}

GateResult checkRingCells(const std::string& kernel, int steps, int n, const std::vector<float>& ring,
                          const std::vector<float>& initial) {
    const char* id = "34.ring";
    if (ring.size() != ringCells(n)) {
        return GateResult::fail(id, kernel + " after " + stepsText(steps) + ": the ring has " +
                                        std::to_string(ring.size()) + " cells, want " + std::to_string(ringCells(n)) +
                                        " (" + std::to_string(n) + " x " + std::to_string(n) + ")");
    }
    if (initial.size() != static_cast<size_t>(n) * static_cast<size_t>(n)) {
        return GateResult::fail(id, sizeProblem("the initial grid", initial.size(), n));
    }
    // Row-major order, so "first" means the same thing as in the other gates.
    for (size_t k = 0; k < ring.size(); ++k) {
        const size_t i = ringCell(k, n);
        if (bitsOf(ring[k]) != bitsOf(initial[i])) {
            return GateResult::fail(id, kernel + " moved a boundary cell after " + stepsText(steps) + ": index " +
                                            std::to_string(i) + " (" + cellName(i, n) + "): got " +
                                            formatValue(ring[k]) + ", want " + formatValue(initial[i]) +
                                            poisonNote(ring[k]));
        }
    }
    return GateResult::pass(id);
}

GateResult checkCopyPolicy(int n, const std::vector<float>& never, const std::vector<float>& copied, int copyEvery) {
    const char* id = "34.copy_policy";
    const std::string policy = policyText(copyEvery);
    if (const std::string bad = sizeProblem("the never-copied grid", never.size(), n); !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    if (const std::string bad = sizeProblem("the grid " + policy, copied.size(), n); !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    for (size_t i = 0; i < never.size(); ++i) {
        if (bitsOf(copied[i]) != bitsOf(never[i])) {
            return GateResult::fail(id, "copy policy changed the answer at index " + std::to_string(i) + " (" +
                                            cellName(i, n) + "): " + formatValue(copied[i]) + " with the grid " +
                                            policy + ", " + formatValue(never[i]) + " never copied back");
        }
    }
    return GateResult::pass(id);
}

GateResult checkSnapshot(int n, int steps, int copyEvery, const std::vector<float>& final,
                         const std::vector<float>& snapshot) {
    const char* id = "34.copy_policy";
    const std::string what = "the host copy of the grid " + policyText(copyEvery);
    if (const std::string bad = sizeProblem(what, snapshot.size(), n); !bad.empty()) return GateResult::fail(id, bad);
    if (const std::string bad = sizeProblem("the final grid", final.size(), n); !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    for (size_t i = 0; i < final.size(); ++i) {
        if (bitsOf(snapshot[i]) != bitsOf(final[i])) {
            return GateResult::fail(id, what + " after step " + std::to_string(steps) +
                                            " is not the final grid at index " + std::to_string(i) + " (" +
                                            cellName(i, n) + "): " + formatValue(snapshot[i]) + " on the host, " +
                                            formatValue(final[i]) + " on the device");
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
    message += " after " + stepsText(steps) + ", and it started at " + formatValue(initialMax);
    return GateResult::fail(id, message);
}

GateResult checkUnstable(double r, float maxAbs, long long nonFinite, int steps, float initialMax) {
    const char* id = "34.unstable";
    if (maxAbs > initialMax) return GateResult::pass(id);
    std::string message = "no growth past the bound at r = " + formatR(r) + ": max abs(u) is " + formatValue(maxAbs);
    if (nonFinite > 0) message += " (and " + std::to_string(nonFinite) + " cells are not finite)";
    message += " after " + stepsText(steps) + ", not above the initial max " + formatValue(initialMax) +
               "; a correct step multiplies the checkerboard by |1 - 8r| = " + formatR(std::fabs(1.0 - 8.0 * r)) +
               " every step";
    return GateResult::fail(id, message);
}

GateResult checkCopy(int n, const std::vector<float>& got, const std::vector<float>& input) {
    const char* id = "34.timing";
    if (const std::string bad = sizeProblem("copyGrid's output", got.size(), n); !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    if (const std::string bad = sizeProblem("copyGrid's input", input.size(), n); !bad.empty()) {
        return GateResult::fail(id, bad);
    }
    for (size_t i = 0; i < got.size(); ++i) {
        if (bitsOf(got[i]) != bitsOf(input[i])) {
            return GateResult::fail(id, "copyGrid's output differs from its input at index " + std::to_string(i) +
                                            " (" + cellName(i, n) + "): got " + formatValue(got[i]) + ", want " +
                                            formatValue(input[i]) + poisonNote(got[i]));
        }
    }
    return GateResult::pass(id);
}

GateResult checkTimings(const std::vector<std::pair<std::string, double>>& figuresMs) {
    return grading::checkPositiveTimes("34.timing", figuresMs);
}

GateResult checkTimedRuns(const std::string& kernel, int n, const std::vector<int64_t>& runDiff, int runs) {
    const char* id = "34.timing";
    if (runDiff.size() != static_cast<size_t>(runs)) {
        return GateResult::fail(id, "the runner checked " + std::to_string(runDiff.size()) + " of " + kernel + "'s " +
                                        std::to_string(runs) + " timed runs");
    }
    for (int r = 0; r < runs; ++r) {
        if (runDiff[r] < 0) continue;
        const int64_t row = runDiff[r] / n, col = runDiff[r] % n;
        return GateResult::fail(id, kernel + "'s timed run " + std::to_string(r) + ": the cell at row " +
                                        std::to_string(row) + ", col " + std::to_string(col) +
                                        " is not the course's answer to the run's own grid: the run did not do its "
                                        "own step");
    }
    return GateResult::pass(id);
}

GateResult checkClockedSteps(const std::string& kernel, int steps, double gotEnergy, long long gotNonFinite,
                             double wantEnergy, long long wantNonFinite) {
    const char* id = "34.speed";
    const std::string what = kernel + "'s " + std::to_string(steps) + " clocked steps";
    if (gotNonFinite > wantNonFinite) {
        return GateResult::fail(id, what + " left " + std::to_string(gotNonFinite) +
                                        " cells that are not finite, the instructor's on the same input " +
                                        std::to_string(wantNonFinite));
    }
    if (!(std::fabs(gotEnergy - wantEnergy) <= kClockedEnergyTolerance * std::fabs(wantEnergy))) {
        return GateResult::fail(id, what + " left a grid of energy " + formatValue(gotEnergy) +
                                        ", the instructor's on the same input " + formatValue(wantEnergy) +
                                        " (relative tolerance " + formatValue(kClockedEnergyTolerance) +
                                        "): the timed steps were not all done");
    }
    return GateResult::pass(id);
}

}  // namespace day34
