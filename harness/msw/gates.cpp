#include "gates.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "protocol.h"

namespace msw::grade {

using grading::GateResult;

namespace {

constexpr const char* kIndexId = "msw.index";
constexpr uint64_t kAllOnes = std::numeric_limits<uint64_t>::max();

}  // namespace

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
    if (got >= 0 && static_cast<uint64_t>(got) == want) return GateResult::pass(kIndexId);
    return GateResult::fail(kIndexId, function + ": " + describeCase(n, c) + ": got " + std::to_string(got) +
                                          ", want " + std::to_string(want));
}

GateResult checkIndexBatch(const std::string& function, uint64_t n, const std::vector<IndexCase>& cases,
                           const std::vector<int64_t>& got, const std::vector<uint64_t>& want) {
    if (got.size() != cases.size() || want.size() != cases.size()) {
        return GateResult::fail(kIndexId, function + ": n = " + std::to_string(n) + ": got " +
                                              std::to_string(got.size()) + " answers for " +
                                              std::to_string(cases.size()) + " cases");
    }
    for (size_t k = 0; k < cases.size(); ++k) {
        if (got[k] < 0) continue;
        const GateResult r = checkIndex(function, n, cases[k], got[k], want[k]);
        if (!r.passed) return r;
    }
    return GateResult::pass(kIndexId);
}

// ---- the kernels' contracts, launch by launch --------------------------------

namespace {

const char* kernelName(int32_t kernel) {
    switch (kernel) {
        case protocol::kParSigSqrt: return "par_sig_sqrt";
        case protocol::kLeftmostPrisoner: return "naive_leftmost_prisoner";
        case protocol::kSectionDiff: return "par_get_section_diff";
        default: return "an unknown kernel";
    }
}

using Words = std::map<uint64_t, uint64_t>;  // block offset -> value, non-zero words only

// The block layout of course/msw.cu for n words.
struct Layout {
    explicit Layout(uint64_t words) : n(words), chunk(chunkLength(words)), marks(words + 1), end(words + 1 + chunk) {}
    uint64_t n, chunk, marks, end;

    bool isFlag(uint64_t off) const { return off < n; }
    bool isMark(uint64_t off) const { return off >= marks && off < end; }
    std::string name(uint64_t off) const {
        if (isFlag(off)) return "flag " + std::to_string(off);
        if (off == n) return "*section (block word n)";
        return "chunk mark " + std::to_string(off - marks);
    }
};

// What the runner saw after a launch, restricted to the layout's words.
// Offsets below `known` are exact; past it the runner sent nothing more.
struct Seen {
    Words words;
    uint64_t known = 0;
    uint64_t nonZero = 0;
    size_t sent = 0;

    uint64_t at(uint64_t off) const {
        const auto it = words.find(off);
        return it == words.end() ? 0 : it->second;
    }
};

Seen seen(const Launch& l, const Layout& layout) {
    Seen s;
    s.nonZero = l.nonZero;
    s.sent = l.words.size();
    for (const auto& [off, value] : l.words) {
        if (off < layout.end && value != 0) s.words[off] = value;
    }
    const bool complete = l.nonZero <= l.words.size();
    s.known = complete || l.words.empty() ? (complete ? kAllOnes : 0) : l.words.back().first + 1;
    return s;
}

// The first offset in [0, end), outside `skip`, where `got` and `want`
// differ. nullopt when they agree; kAllOnes when they agree as far as the
// runner sent and it did not send everything.
template <class Skip>
std::optional<uint64_t> firstDifference(const Seen& got, const Words& want, const Layout& layout, Skip skip) {
    std::set<uint64_t> offsets;
    for (const auto& kv : got.words) offsets.insert(kv.first);
    for (const auto& kv : want) offsets.insert(kv.first);
    for (uint64_t off : offsets) {
        if (off >= got.known) break;
        if (skip(off)) continue;
        const auto w = want.find(off);
        if (got.at(off) != (w == want.end() ? 0 : w->second)) return off;
    }
    if (got.known < layout.end) return kAllOnes;
    return std::nullopt;
}

std::string tooManyWords(const Seen& got) {
    return "the block holds " + std::to_string(got.nonZero) + " non-zero words after it, more than a correct search "
           "leaves (the runner sent the first " + std::to_string(got.sent) + ")";
}

// "chunk marks 0 and 2 survive", "flag 7 survives", "no chunk mark survives".
std::string survivors(const std::string& one, const std::string& many, const std::vector<uint64_t>& at) {
    if (at.empty()) return "no " + one + " survives";
    if (at.size() == 1) return one + " " + std::to_string(at[0]) + " survives";
    constexpr size_t kShown = 8;
    std::string s = many + " ";
    const size_t shown = std::min(at.size(), kShown);
    for (size_t k = 0; k < shown; ++k) {
        s += (k == 0 ? "" : k + 1 == shown && at.size() <= kShown ? " and " : ", ") + std::to_string(at[k]);
    }
    if (at.size() > kShown) s += ", ... (" + std::to_string(at.size()) + " in all)";
    return s + " survive";
}

// The non-zero words of `words` in [lo, hi), as indices relative to `base`.
std::vector<uint64_t> nonZeroIn(const Words& words, uint64_t lo, uint64_t hi, uint64_t base) {
    std::vector<uint64_t> out;
    for (auto it = words.lower_bound(lo); it != words.end() && it->first < hi; ++it) out.push_back(it->first - base);
    return out;
}

std::string valueText(uint64_t v) { return std::to_string(v); }

}  // namespace

GateResult checkLaunches(uint64_t n, const IndexCase& c, const std::vector<Launch>& launches) {
    const Layout layout(n);
    const uint64_t chunk = layout.chunk;
    const std::string where = describeCase(n, c);
    const auto fail = [&](int32_t kernel, int phase, const std::string& detail) {
        return GateResult::fail(kIndexId, std::string(kernelName(kernel)) + " (phase " + std::to_string(phase) + "), " +
                                              where + ": " + detail);
    };

    // The launches the course's search makes for this case.
    struct Step {
        int32_t kernel;
        uint64_t count;
        int phase;
    };
    std::vector<Step> steps = {{protocol::kParSigSqrt, n, 1},
                               {protocol::kLeftmostPrisoner, chunk, 1},
                               {protocol::kSectionDiff, chunk, 1}};
    const bool differs = !c.planted.empty();
    const uint64_t first = differs ? c.planted.front() : n;
    const uint64_t section = first / chunk;  // the chunk phase 1 must find
    const uint64_t offset = section * chunk;
    const uint64_t words = differs ? std::min(chunk, n - offset) : 0;
    if (differs) {
        steps.push_back({protocol::kLeftmostPrisoner, words, 2});
        steps.push_back({protocol::kSectionDiff, words, 2});
    }
    const auto launchText = [](int32_t kernel, uint64_t count) {
        return std::string(kernelName(kernel)) + " given n = " + std::to_string(count);
    };

    // Phase 1 starts from b in the flags, *section all ones, zeroed marks;
    // par_sig_sqrt is checked against what it must leave.
    Words state;
    for (uint64_t p : c.planted) {
        state[p] = 1;
        state[layout.marks + p / chunk] = 1;
    }
    state[n] = kAllOnes;

    for (size_t j = 0; j < steps.size(); ++j) {
        const Step& step = steps[j];
        if (j >= launches.size()) {
            return GateResult::fail(kIndexId, "the search, " + where + ", made " + std::to_string(launches.size()) +
                                                  " launches, want " + std::to_string(steps.size()) + ": " +
                                                  launchText(step.kernel, step.count) + " is missing");
        }
        const Launch& l = launches[j];
        if (l.kernel != step.kernel || l.count != step.count) {
            return GateResult::fail(kIndexId, "the search, " + where + ": launch " + std::to_string(j + 1) + " was " +
                                                  launchText(l.kernel, l.count) + ", want " +
                                                  launchText(step.kernel, step.count));
        }
        const Seen got = seen(l, layout);
        const int32_t k = step.kernel;

        if (j == 0) {  // par_sig_sqrt: flags and marks, exactly
            const auto off = firstDifference(got, state, layout, [](uint64_t) { return false; });
            if (!off) continue;
            if (*off == kAllOnes) return fail(k, 1, tooManyWords(got));
            const uint64_t want = state.count(*off) ? state.at(*off) : 0;
            std::string why;
            if (layout.isFlag(*off)) {
                why = want ? " (the words differ)" : " (the words are equal)";
            } else if (layout.isMark(*off)) {
                const uint64_t mark = *off - layout.marks;
                const auto in = std::find_if(c.planted.begin(), c.planted.end(),
                                             [&](uint64_t p) { return p / chunk == mark; });
                why = in != c.planted.end()
                          ? " (chunk " + std::to_string(mark) + " holds differing word " + std::to_string(*in) + ")"
                          : " (no word of chunk " + std::to_string(mark) + " differs)";
            } else {
                why = " (par_sig_sqrt must leave it as the host set it)";
            }
            return fail(k, 1, layout.name(*off) + " is " + valueText(got.at(*off)) + ", want " + valueText(want) + why);
        }

        // The array this launch was given; it may write nothing else but,
        // for par_get_section_diff, *section.
        const bool phase1 = step.phase == 1;
        const uint64_t lo = phase1 ? layout.marks : offset;
        const uint64_t hi = phase1 ? layout.end : offset + words;
        const bool prisoner = k == protocol::kLeftmostPrisoner;
        const std::string given = phase1 ? "the " + std::to_string(chunk) + " chunk marks"
                                         : "the " + std::to_string(words) + " flags of chunk " + std::to_string(section);
        const auto mine = [&](uint64_t off) { return (off >= lo && off < hi) || (!prisoner && off == n); };
        if (const auto off = firstDifference(got, state, layout, mine)) {
            if (*off == kAllOnes) return fail(k, step.phase, tooManyWords(got));
            const uint64_t was = state.count(*off) ? state.at(*off) : 0;
            return fail(k, step.phase,
                        layout.name(*off) + " changed from " + valueText(was) + " to " + valueText(got.at(*off)) + "; " +
                            kernelName(k) + " may write only " + (prisoner ? given : "*section"));
        }
        if (got.known < hi) return fail(k, step.phase, tooManyWords(got));

        const std::vector<uint64_t> before = nonZeroIn(state, lo, hi, phase1 ? layout.marks : 0);
        if (prisoner) {
            const std::vector<uint64_t> after = nonZeroIn(got.words, lo, hi, phase1 ? layout.marks : 0);
            const std::vector<uint64_t> want(before.begin(), before.begin() + std::min<size_t>(before.size(), 1));
            if (after != want) {
                const std::string one = phase1 ? "chunk mark" : "flag";
                return fail(k, step.phase,
                            survivors(one, one + "s", after) + ", want " +
                                (want.empty() ? std::string("none") : "only " + std::to_string(want[0])));
            }
        } else {
            // *section: the survivor's index within the array, all ones when none.
            const uint64_t gotSection = got.at(n);
            const uint64_t wantSection = before.empty() ? kAllOnes : before[0] - (phase1 ? 0 : offset);
            if (gotSection != wantSection) {
                std::string why;
                if (before.empty()) {
                    why = " (no " + std::string(phase1 ? "chunk mark" : "flag") +
                          " survives: *section keeps the all ones the host wrote)";
                } else if (phase1) {
                    why = " (chunk mark " + std::to_string(before[0]) + " survives)";
                } else {
                    why = " (flag " + std::to_string(before[0]) + ", word " + std::to_string(wantSection) +
                          " of chunk " + std::to_string(section) + ", survives)";
                }
                return fail(k, step.phase, "*section is " + valueText(gotSection) + ", want " + valueText(wantSection) + why);
            }
        }
        state = got.words;
        if (j == 2) state[n] = kAllOnes;  // the host resets *section before phase 2
    }
    if (launches.size() > steps.size()) {
        return GateResult::fail(kIndexId, "the search, " + where + ", made " + std::to_string(launches.size()) +
                                              " launches, want " + std::to_string(steps.size()) + ": launch " +
                                              std::to_string(steps.size() + 1) + " was " +
                                              launchText(launches[steps.size()].kernel, launches[steps.size()].count));
    }
    return GateResult::pass(kIndexId);
}

GateResult checkEmpty(const std::vector<std::pair<std::string, int64_t>>& answers, int64_t blockWords, int allocNull,
                      int launches) {
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
    if (allocNull == 0) return GateResult::fail(id, "alloc_large_block_to_device(0): got a device block, want nullptr");
    if (launches != 0) {
        return GateResult::fail(id, "n = 0: the calls launched " + std::to_string(launches) + " kernel" +
                                        (launches == 1 ? "" : "s") + ", want none");
    }
    return GateResult::pass(id);
}

GateResult checkBlock(const std::vector<uint64_t>& ns, const std::vector<uint64_t>& got) {
    const char* id = "msw.block";
    if (got.size() != ns.size()) {
        return GateResult::fail(id, "got " + std::to_string(got.size()) + " block sizes for " +
                                        std::to_string(ns.size()) + " values of n");
    }
    for (size_t k = 0; k < ns.size(); ++k) {
        const uint64_t want = wantBlockWords(ns[k]);
        if (got[k] != want) {
            return GateResult::fail(id, "n = " + std::to_string(ns[k]) + ": got " + std::to_string(got[k]) +
                                            " words, want " + std::to_string(want) + " (n + floor(sqrt(n - 1)) + 2)");
        }
    }
    return GateResult::pass(id);
}

}  // namespace msw::grade
