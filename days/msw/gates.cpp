#include "msw_gates.h"

#include <cmath>

namespace msw::grade {

using grading::GateResult;

uint64_t floorSqrt(uint64_t x) {
    // Bisection on r * r <= x, written as r <= x / r so nothing overflows.
    uint64_t lo = 0;
    uint64_t hi = uint64_t{1} << 32;  // (2^32)^2 > any x
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (mid <= x / mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

uint64_t chunkLength(uint64_t n) { return n == 0 ? 0 : floorSqrt(n - 1) + 1; }

uint64_t wantBlockWords(uint64_t n) { return n == 0 ? 0 : n + floorSqrt(n - 1) + 2; }

std::string describeCase(uint64_t n, const IndexCase& c) {
    std::string s = "n = " + std::to_string(n) + ", ";
    if (c.planted.empty()) return s + "no planted index (" + (c.kind.empty() ? "identical arrays" : c.kind) + ")";
    constexpr size_t kShown = 8;
    s += c.planted.size() == 1 ? "planted index " : "planted indices ";
    for (size_t k = 0; k < c.planted.size() && k < kShown; ++k) {
        s += (k > 0 ? ", " : "") + std::to_string(c.planted[k]);
    }
    std::string note = c.kind;
    if (c.planted.size() > kShown) {
        s += ", ...";
        note = std::to_string(c.planted.size()) + " in all" + (note.empty() ? "" : ", " + note);
    }
    return note.empty() ? s : s + " (" + note + ")";
}

GateResult checkIndex(const std::string& function, uint64_t n, const IndexCase& c, int64_t got, uint64_t want) {
    const char* id = "msw.index";
    if (got >= 0 && static_cast<uint64_t>(got) == want) return GateResult::pass(id);
    return GateResult::fail(id, function + ": " + describeCase(n, c) + ": got " + std::to_string(got) + ", want " +
                                    std::to_string(want));
}

GateResult checkIndexBatch(const std::string& function, uint64_t n, const std::vector<IndexCase>& cases,
                           const std::vector<int64_t>& got, const std::vector<uint64_t>& want) {
    const char* id = "msw.index";
    if (got.size() != cases.size() || want.size() != cases.size()) {
        return GateResult::fail(id, function + ": n = " + std::to_string(n) + ": got " + std::to_string(got.size()) +
                                        " answers for " + std::to_string(cases.size()) + " cases");
    }
    for (size_t k = 0; k < cases.size(); ++k) {
        if (got[k] < 0) continue;
        const GateResult r = checkIndex(function, n, cases[k], got[k], want[k]);
        if (!r.passed) return r;
    }
    return GateResult::pass(id);
}

GateResult checkEmpty(const std::vector<std::pair<std::string, int64_t>>& answers, int64_t blockWords) {
    const char* id = "msw.empty";
    for (const auto& [function, got] : answers) {
        if (got != 0) return GateResult::fail(id, function + ": n = 0: got " + std::to_string(got) + ", want 0");
    }
    if (blockWords > kEmptyBlockLimitWords) {
        return GateResult::fail(id, "large_block_words(0): got " + std::to_string(blockWords) + " words (" +
                                        std::to_string(static_cast<unsigned long long>(blockWords) * 8) +
                                        " bytes), want at most " + std::to_string(kEmptyBlockLimitWords) +
                                        ": n - 1 wrapped around before the square root");
    }
    return GateResult::pass(id);
}

GateResult checkBlock(const std::vector<uint64_t>& ns, const std::vector<int64_t>& got) {
    const char* id = "msw.block";
    if (got.size() != ns.size()) {
        return GateResult::fail(id, "got " + std::to_string(got.size()) + " block sizes for " +
                                        std::to_string(ns.size()) + " values of n");
    }
    for (size_t k = 0; k < ns.size(); ++k) {
        const uint64_t want = wantBlockWords(ns[k]);
        if (got[k] < 0 || static_cast<uint64_t>(got[k]) != want) {
            return GateResult::fail(id, "n = " + std::to_string(ns[k]) + ": got " + std::to_string(got[k]) +
                                            " words, want " + std::to_string(want) + " (n + floor(sqrt(n - 1)) + 2)");
        }
    }
    return GateResult::pass(id);
}

}  // namespace msw::grade
