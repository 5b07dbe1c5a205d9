#include "msw_cases.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "harness/graph_generators.h"
#include "msw_arrays.h"
#include "msw_host.h"

namespace msw::cases {

using grade::IndexCase;

const char* const kWrapperName = "par_find_mismatch(a, b, n)";

std::vector<std::string> impls() { return {"two_phase", "fast"}; }

std::string functionName(const std::string& impl) {
    return impl == "fast" ? "fast_find_mismatch(d_a, d_b, n)" : "par_find_mismatch(d_a, b, d_large_block, n)";
}

std::vector<uint64_t> indexSizes() {
    std::vector<uint64_t> sizes = {1, 2, 3};
    // Perfect squares and their neighbours; 12 = 3^2 + 3 and 20 = 4^2 + 4
    // end a chunk exactly at n.
    for (uint64_t k : {2u, 3u, 4u, 5u, 8u, 16u, 32u, 64u, 1024u}) {
        for (uint64_t n : {k * k - 1, k * k, k * k + 1}) sizes.push_back(n);
    }
    // At least 2^24 words: 4096^2, and one word more (its last chunk holds two).
    sizes.push_back(uint64_t{1} << 24);
    sizes.push_back((uint64_t{1} << 24) + 1);
    sizes.push_back(12);
    sizes.push_back(20);
    sizes.push_back(1000);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

namespace {

class CaseList {
public:
    explicit CaseList(uint64_t n) : n_(n) {}
    void add(std::string kind, std::vector<uint64_t> planted) {
        std::sort(planted.begin(), planted.end());
        planted.erase(std::unique(planted.begin(), planted.end()), planted.end());
        planted.erase(std::remove_if(planted.begin(), planted.end(), [&](uint64_t i) { return i >= n_; }),
                      planted.end());
        if (!seen_.insert(planted).second) return;  // the same question once
        cases_.push_back({std::move(kind), std::move(planted)});
    }
    std::vector<IndexCase> take() { return std::move(cases_); }

private:
    uint64_t n_;
    std::set<std::vector<uint64_t>> seen_;
    std::vector<IndexCase> cases_;
};

}  // namespace

uint64_t sampledBoundaries(uint64_t n) { return n >= (uint64_t{1} << 24) ? 32 : 64; }

std::vector<IndexCase> indexCases(uint64_t n, uint64_t seed) {
    grading::SplitMix64 rng(seed ^ (n * 0x2545f4914f6cdd1dull));
    CaseList list(n);
    list.add("identical arrays", {});
    list.add("first word", {0});
    if (n > 1) list.add("last word", {n - 1});

    const uint64_t chunk = grade::chunkLength(n);
    const uint64_t chunks = (n + chunk - 1) / chunk;
    std::vector<uint64_t> boundaries;  // chunk numbers k >= 1; chunk k starts at k * chunk
    if (chunks <= kAllBoundariesUpTo) {
        for (uint64_t k = 1; k < chunks; ++k) boundaries.push_back(k);
    } else {
        std::set<uint64_t> pick;
        const uint64_t sample = sampledBoundaries(n);
        for (uint64_t k = 1; k <= sample / 4; ++k) pick.insert(k);
        for (uint64_t k = chunks - sample / 4; k < chunks; ++k) pick.insert(k);
        while (pick.size() < sample) pick.insert(1 + rng.below(chunks - 1));
        boundaries.assign(pick.begin(), pick.end());
    }
    for (uint64_t k : boundaries) {
        const uint64_t b = k * chunk;
        const std::string which = "chunk " + std::to_string(k);
        list.add("last word before " + which, {b - 1});
        list.add("first word of " + which, {b});
        list.add("second word of " + which, {b + 1});
    }
    for (int r = 0; r < 8; ++r) list.add("random word", {rng.below(n)});

    if (n >= 2) {
        const uint64_t c = rng.below(chunks);
        const uint64_t start = c * chunk;
        const uint64_t len = std::min(chunk, n - start);
        if (len >= 2) {
            const uint64_t p = start + rng.below(len - 1);
            list.add("several, in one chunk", {p, p + 1 + rng.below(start + len - p - 1)});
        }
        std::vector<uint64_t> spread;
        for (int r = 0; r < 4; ++r) spread.push_back(rng.below(n));
        list.add("several, spread", spread);
        if (chunks >= 2) {
            std::vector<uint64_t> perChunk;
            for (uint64_t k = 0; k < chunks; ++k) {
                const uint64_t s = k * chunk;
                perChunk.push_back(s + rng.below(std::min(chunk, n - s)));
            }
            list.add("several, one per chunk", perChunk);
            const uint64_t k = 1 + rng.below(chunks - 1);
            list.add("several, both sides of chunk " + std::to_string(k), {k * chunk - 1, k * chunk});
        }
        const uint64_t lastStart = (chunks - 1) * chunk;
        list.add("several, last chunk", {lastStart + rng.below(n - lastStart), n - 1});
        list.add("several, first and last word", {0, n - 1});
        if (n <= 4096) {
            std::vector<uint64_t> all(n);
            for (uint64_t i = 0; i < n; ++i) all[i] = i;
            list.add("several, every word", all);
        }
    }
    return list.take();
}

std::vector<int32_t> wrapperFlags(uint64_t n, const std::vector<IndexCase>& cases) {
    std::vector<int32_t> flags(cases.size(), 1);
    if (n <= kWrapperEveryCaseUpTo) return flags;
    for (size_t k = 0; k < cases.size(); ++k) {
        const std::string& kind = cases[k].kind;
        const bool key = kind == "identical arrays" || kind == "first word" || kind == "last word" ||
                         kind.compare(0, 8, "several,") == 0;
        flags[k] = key || k % 8 == 0 ? 1 : 0;
    }
    return flags;
}

std::vector<uint64_t> wants(uint64_t n, uint64_t seed, const std::vector<IndexCase>& cases) {
    std::vector<uint64_t> a(n);
    msw::arrays::fill(a.data(), n, seed);
    std::vector<uint64_t> b = a;
    std::vector<uint64_t> out;
    const bool fullScans = n <= kFullScanUpTo;
    for (const IndexCase& c : cases) {
        for (uint64_t i : c.planted) b[i] = msw::arrays::plantedWord(seed, i);
        uint64_t want = n;
        if (fullScans) {
            want = seq_find_mismatch(a.data(), b.data(), n);
        } else {
            for (uint64_t i : c.planted) {
                if (seq_find_mismatch(a.data() + i, b.data() + i, 1) == 0) {
                    want = i;
                    break;
                }
            }
        }
        const uint64_t planted = c.planted.empty() ? n : c.planted.front();
        if (want != planted) {
            throw std::logic_error("msw arrays: seq_find_mismatch says " + std::to_string(want) +
                                   " where the first planted index is " + std::to_string(planted));
        }
        out.push_back(want);
        for (uint64_t i : c.planted) b[i] = a[i];
    }
    if (!fullScans && seq_find_mismatch(a.data(), b.data(), n) != n) {
        throw std::logic_error("msw arrays: the second array differs from the first after the planted words were "
                               "restored");
    }
    return out;
}

namespace {

template <typename T>
void take(const grading::Expected<T>& field, T* into, std::string* error) {
    if (field) {
        *into = field.value();
    } else if (error->empty()) {
        *error = field.error();
    }
}

}  // namespace

// A correct run (process start and CUDA context included) takes 1 to 4 s up
// to 2^21 words and up to about 8 s at 2^24 (a 128 MiB copy of b per case)
// while the rest of the suite shares the GPU.
double findTimeLimit(uint64_t n) { return n > kFullScanUpTo ? 40.0 : 20.0; }

FindRun runFind(const std::string& runner, const std::string& impl, uint64_t n, uint64_t seed,
                const std::vector<IndexCase>& cases, const std::vector<int32_t>& wrapper, double timeLimitSeconds) {
    FindRun r;
    grading::Record input;
    std::vector<int64_t> ns(cases.size(), static_cast<int64_t>(n));
    std::vector<int64_t> seeds(cases.size(), static_cast<int64_t>(seed));
    std::vector<int64_t> starts = {0};
    std::vector<int64_t> indices;
    for (const IndexCase& c : cases) {
        indices.insert(indices.end(), c.planted.begin(), c.planted.end());
        starts.push_back(static_cast<int64_t>(indices.size()));
    }
    input.putInt64s("n", ns);
    input.putInt64s("seed", seeds);
    input.putInt64s("plant_start", starts);
    input.putInt64s("plant_index", indices);
    input.putInts("wrapper", wrapper);
    grading::RunnerCall call;
    call.runner = runner;
    call.subcommand = "find";
    call.args = {"--impl", impl};
    call.input = &input;
    call.label = "find --impl " + impl + " with n = " + std::to_string(n) + " (" + std::to_string(cases.size()) +
                 " cases)";
    call.timeLimitSeconds = timeLimitSeconds;
    r.outcome = grading::callRunner(call);
    if (!r.outcome.ok()) return r;
    take(r.outcome.result.int64s("got"), &r.got, &r.fieldError);
    if (impl == "two_phase") take(r.outcome.result.int64s("got_wrapper"), &r.gotWrapper, &r.fieldError);
    return r;
}

EmptyRun runEmpty(const std::string& runner, const std::string& impl) {
    EmptyRun r;
    grading::RunnerCall call;
    call.runner = runner;
    call.subcommand = "empty";
    call.args = {"--impl", impl};
    call.timeLimitSeconds = 20.0;
    r.outcome = grading::callRunner(call);
    if (!r.outcome.ok()) return r;
    const grading::Record& out = r.outcome.result;
    int64_t v = 0;
    if (impl == "two_phase") {
        take(out.integer("got_wrapper"), &v, &r.fieldError);
        r.answers.emplace_back(kWrapperName, v);
        take(out.integer("got_block"), &v, &r.fieldError);
        r.answers.emplace_back(functionName(impl), v);
        take(out.integer("block_words"), &r.blockWords, &r.fieldError);
        take(out.integer("alloc_null"), &r.allocNull, &r.fieldError);
    } else {
        take(out.integer("got"), &v, &r.fieldError);
        r.answers.emplace_back(functionName(impl), v);
    }
    take(out.integer("free_before"), &r.freeBefore, &r.fieldError);
    take(out.integer("free_after"), &r.freeAfter, &r.fieldError);
    return r;
}

std::vector<uint64_t> blockSizes() {
    std::set<uint64_t> ns;
    for (uint64_t n = 1; n <= 3000; ++n) ns.insert(n);
    std::vector<uint64_t> roots;
    for (int e = 1; e <= 31; ++e) {
        const uint64_t p = uint64_t{1} << e;
        roots.insert(roots.end(), {p - 1, p, p + 1});
    }
    // Past k = 2^26 a double's square root of k^2 - 1 rounds up to k.
    for (uint64_t k : {94906265ull, 134217729ull, 2147483647ull}) roots.push_back(k);
    for (uint64_t k : roots) {
        if (k > 2147483648ull) continue;  // keep k^2 + k within 2^62
        const uint64_t sq = k * k;
        ns.insert({sq - 1, sq, sq + 1});
    }
    ns.insert(uint64_t{1} << 62);
    ns.erase(0);
    return {ns.begin(), ns.end()};
}

BlockRun runBlock(const std::string& runner, const std::vector<uint64_t>& ns) {
    BlockRun r;
    grading::Record input;
    input.putInt64s("n", std::vector<int64_t>(ns.begin(), ns.end()));
    grading::RunnerCall call;
    call.runner = runner;
    call.subcommand = "block";
    call.input = &input;
    call.label = "block for " + std::to_string(ns.size()) + " values of n";
    call.timeLimitSeconds = 20.0;
    r.outcome = grading::callRunner(call);
    if (!r.outcome.ok()) return r;
    take(r.outcome.result.int64s("block_words"), &r.blockWords, &r.fieldError);
    return r;
}

TimeRun runTime(const std::string& runner, const std::string& impl, uint64_t n, uint64_t seed,
                const std::vector<int64_t>& plants, int runs) {
    TimeRun r;
    std::string placements;
    for (int64_t p : plants) placements += (placements.empty() ? "" : ",") + std::to_string(p);
    grading::RunnerCall call;
    call.runner = runner;
    call.subcommand = "time";
    call.args = {"--impl", impl, "--n", std::to_string(n), "--seed", std::to_string(seed),
                 "--plant", placements, "--runs", std::to_string(runs)};
    call.timeLimitSeconds = 30.0;
    r.outcome = grading::callRunner(call);
    if (!r.outcome.ok()) return r;
    std::vector<float> all;
    take(r.outcome.result.floats("ms"), &all, &r.fieldError);
    if (!r.fieldError.empty()) return r;
    if (all.size() != plants.size() * static_cast<size_t>(runs)) {
        r.fieldError = "ms holds " + std::to_string(all.size()) + " times, want " +
                       std::to_string(plants.size() * static_cast<size_t>(runs));
        return r;
    }
    for (size_t p = 0; p < plants.size(); ++p) {
        r.ms.emplace_back(all.begin() + static_cast<long>(p * runs), all.begin() + static_cast<long>((p + 1) * runs));
    }
    return r;
}

}  // namespace msw::cases
