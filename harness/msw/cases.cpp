#include "cases.h"

#include <algorithm>
#include <functional>
#include <regex>
#include <set>
#include <stdexcept>

#include "arrays.h"
#include "harness/answer_cache.h"
#include "harness/day.h"
#include "harness/text.h"
#include "msw_host.h"
#include "shrink.h"

namespace msw::cases {

using grade::IndexCase;

const char* const kBlockOverload = "par_find_mismatch(d_a, b, d_large_block, n)";
const char* const kWrapperName = "par_find_mismatch(a, b, n)";
const char* const kFastName = "fast_find_mismatch(d_a, d_b, n)";

namespace {

using Rng = grading::SplitMix64;  // word(key, i) of arrays.h is its (i + 1)-th output from `key`

}  // namespace

double searchSeconds(uint64_t n, uint64_t searches) {
    return kCallSeconds + static_cast<double>(searches) * (kSecondsPerSearch + static_cast<double>(n) * kSecondsPerWord);
}

std::vector<SizeSpec> indexSizes() {
    // 2^27: the largest n the runner accepts, with 11586 chunk marks, more
    // than a fixed table of 8192 would hold.
    std::set<uint64_t> fixed = {1,        2, 3, 12, 20, 1000, uint64_t{1} << 24, (uint64_t{1} << 24) + 1, 4097ull * 4097ull,
                                kLargestWords};
    for (uint64_t k : {2u, 3u, 4u, 5u, 8u, 10u, 16u, 32u, 64u, 1024u}) fixed.insert({k * k - 1, k * k, k * k + 1});
    std::vector<SizeSpec> specs;
    for (uint64_t n : fixed) specs.push_back({"n" + std::to_string(n), n, n});
    specs.push_back({"zeros_n65537", 65537, 65537, true});  // the hand-made a: every word zero
    specs.push_back({"random_tiny", 4, 64});
    specs.push_back({"random_small", 65, 4096});
    specs.push_back({"random_medium", 4097, uint64_t{1} << 18});
    specs.push_back({"random_large", (uint64_t{1} << 18) + 1, uint64_t{1} << 22});
    return specs;
}

uint64_t sizeFor(const SizeSpec& spec, uint64_t seed) {
    if (!spec.seeded()) return spec.lo;
    return spec.lo + derive(seed, "msw size " + spec.name) % (spec.hi - spec.lo + 1);
}

uint64_t derive(uint64_t seed, const std::string& purpose) { return grading::caseSeed(seed, purpose); }

uint64_t generatorKey(uint64_t seed, const std::string& call) {
    const uint64_t key = derive(seed, "msw generator key " + call);
    return key == msw::arrays::kZeroWordsKey ? 0 : key;
}

uint64_t caseStream(uint64_t seed, const std::string& call) { return derive(seed, "msw questions " + call); }

namespace {

class CaseList {
public:
    CaseList(uint64_t n, Rng& rng) : n_(n), rng_(rng) {}

    // Each planted word differs in `mask`, or in one random bit when 0.
    void add(std::string kind, std::vector<uint64_t> planted, uint64_t mask = 0) {
        std::sort(planted.begin(), planted.end());
        planted.erase(std::unique(planted.begin(), planted.end()), planted.end());
        planted.erase(std::remove_if(planted.begin(), planted.end(), [&](uint64_t i) { return i >= n_; }),
                      planted.end());
        if (!seen_.insert(planted).second) return;  // the same question once
        IndexCase c;
        c.kind = std::move(kind);
        c.planted = std::move(planted);
        for (size_t k = 0; k < c.planted.size(); ++k) c.masks.push_back(mask != 0 ? mask : rng_.bit());
        // Decoys: a few other words rewritten with their own value, so the
        // runner's edit list is not the list of differences.
        std::set<uint64_t> taken(c.planted.begin(), c.planted.end());
        for (int d = 0; d < kDecoysPerCase && taken.size() < n_; ++d) {
            uint64_t at = rng_.below(n_);
            while (taken.count(at)) at = (at + 1) % n_;
            taken.insert(at);
            c.decoys.push_back(at);
        }
        cases_.push_back(std::move(c));
    }
    std::vector<IndexCase> take() { return std::move(cases_); }

private:
    uint64_t n_;
    Rng& rng_;
    std::set<std::vector<uint64_t>> seen_;
    std::vector<IndexCase> cases_;
};

uint64_t chunkCount(uint64_t n) {
    const uint64_t chunk = grade::chunkLength(n);
    return (n + chunk - 1) / chunk;
}

}  // namespace

uint64_t sampledBoundaries(uint64_t n) {
    if (n >= (uint64_t{1} << 26)) return 4;  // the first, the last and two seeded: a 1 GiB copy per search
    return n >= (uint64_t{1} << 24) ? 16 : 32;
}

std::vector<IndexCase> indexCases(uint64_t n, uint64_t stream) {
    Rng rng(stream);
    CaseList list(n, rng);
    list.add("identical arrays", {});
    list.add("first word", {0}, uint64_t{1} << 63);  // only the top bit: a 32-bit compare misses it
    if (n > 1) list.add("last word", {n - 1}, 1);

    const uint64_t chunk = grade::chunkLength(n);
    const uint64_t chunks = chunkCount(n);
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
    for (int r = 0; r < 8; ++r) {
        const uint64_t at = rng.below(n);
        const uint64_t mask = rng.next();
        list.add("random word", {at}, mask != 0 ? mask : 1);
    }

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

uint64_t maxIndexCases(uint64_t n) {
    const uint64_t chunks = chunkCount(n);
    const uint64_t boundaries = chunks <= kAllBoundariesUpTo ? chunks - 1 : sampledBoundaries(n);
    return 3 + 3 * boundaries + 8 + 7;
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

std::vector<uint64_t> wants(uint64_t n, uint64_t key, const std::vector<IndexCase>& cases) {
    std::vector<uint64_t> out;
    const bool fullScans = n <= kFullScanUpTo;
    std::vector<uint64_t> a;
    std::vector<uint64_t> b;
    if (fullScans) {
        a.resize(n);
        msw::arrays::fill(a.data(), n, key);
        b = a;
    }
    for (const IndexCase& c : cases) {
        uint64_t want = n;
        if (fullScans) {
            for (size_t k = 0; k < c.planted.size(); ++k) b[c.planted[k]] ^= c.masks[k];
            want = seq_find_mismatch(a.data(), b.data(), n);
            for (uint64_t i : c.planted) b[i] = a[i];
        } else {
            // b equals a outside the edited words; the decoys equal a too.
            for (size_t k = 0; k < c.planted.size(); ++k) {
                const uint64_t i = c.planted[k];
                const uint64_t ai = msw::arrays::word(key, i);
                const uint64_t bi = ai ^ c.masks[k];
                if (seq_find_mismatch(&ai, &bi, 1) == 0) {
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
    }
    if (fullScans && seq_find_mismatch(a.data(), b.data(), n) != n) {
        throw std::logic_error("msw arrays: b differs from a after the planted words were restored");
    }
    return out;
}

std::string functionName(const std::string& impl) { return impl == "fast" ? kFastName : kBlockOverload; }

EditLists editLists(uint64_t key, const std::vector<IndexCase>& cases, uint64_t stream) {
    Rng rng(stream ^ 0x6564697473ull);  // its own sequence: the order says nothing about the kinds
    EditLists e;
    e.start.push_back(0);
    for (const IndexCase& c : cases) {
        std::vector<std::pair<uint64_t, uint64_t>> edits;
        for (size_t k = 0; k < c.planted.size(); ++k) {
            edits.emplace_back(c.planted[k], msw::arrays::word(key, c.planted[k]) ^ c.masks[k]);
        }
        for (uint64_t i : c.decoys) edits.emplace_back(i, msw::arrays::word(key, i));
        grading::shuffle(edits, rng);
        for (const auto& [index, value] : edits) {
            e.index.push_back(index);
            e.value.push_back(value);
        }
        e.start.push_back(e.index.size());
    }
    return e;
}

protocol::FindRequest findRequest(const std::string& impl, uint64_t n, uint64_t key, const std::vector<IndexCase>& cases,
                                  const std::vector<int32_t>& wrapper, uint64_t stream) {
    EditLists e = editLists(key, cases, stream);
    protocol::FindRequest r;
    r.impl = impl;
    r.n = n;
    r.key = key;
    r.editStart = std::move(e.start);
    r.editIndex = std::move(e.index);
    r.editValue = std::move(e.value);
    r.wrapper = wrapper;
    return r;
}

grading::Reply<protocol::Find> callFind(const std::string& runner, const protocol::FindRequest& request,
                                        double limitSeconds) {
    const size_t searches = request.editStart.empty() ? 0 : request.editStart.size() - 1;
    const std::string label = "find --impl " + request.impl + " with n = " + std::to_string(request.n) + " (" +
                              std::to_string(searches) + " searches)";
    return grading::askAgainStrictly<protocol::Find>([&](bool strict) {
        protocol::FindRequest r = request;
        r.strict = strict ? 1 : 0;
        return grading::call<protocol::Find>(runner, r, {limitSeconds, label, false});
    });
}

std::vector<grade::Launch> launchesOf(const protocol::FindResult& r, size_t k) {
    std::vector<grade::Launch> out;
    for (uint64_t j = r.launchStart[k]; j < r.launchStart[k + 1]; ++j) {
        grade::Launch l;
        l.kernel = r.launchKernel[j];
        l.count = r.launchCount[j];
        l.nonZero = r.launchNonZero[j];
        for (uint64_t w = r.wordStart[j]; w < r.wordStart[j + 1]; ++w) l.words.emplace_back(r.wordOffset[w], r.wordValue[w]);
        out.push_back(std::move(l));
    }
    return out;
}

std::string findResultProblem(const std::string& impl, const protocol::FindResult& r, size_t cases) {
    if (r.got.size() != cases) return "got " + std::to_string(r.got.size()) + " answers for " + std::to_string(cases) + " searches";
    if (impl != "two_phase") return "";
    if (r.gotWrapper.size() != cases) {
        return "got " + std::to_string(r.gotWrapper.size()) + " wrapper answers for " + std::to_string(cases) + " searches";
    }
    const size_t launches = r.launchKernel.size();
    if (r.launchStart.size() != cases + 1 || r.launchStart.front() != 0 || r.launchStart.back() != launches ||
        !std::is_sorted(r.launchStart.begin(), r.launchStart.end()) || r.launchCount.size() != launches ||
        r.launchNonZero.size() != launches) {
        return "the launch record does not describe " + std::to_string(cases) + " searches";
    }
    if (r.wordStart.size() != launches + 1 || r.wordStart.front() != 0 || r.wordStart.back() != r.wordOffset.size() ||
        r.wordOffset.size() != r.wordValue.size() || !std::is_sorted(r.wordStart.begin(), r.wordStart.end())) {
        return "the block snapshots do not describe " + std::to_string(launches) + " launches";
    }
    for (size_t j = 0; j < launches; ++j) {
        if (!std::is_sorted(r.wordOffset.begin() + r.wordStart[j], r.wordOffset.begin() + r.wordStart[j + 1])) {
            return "the snapshot after launch " + std::to_string(j) + " is not in offset order";
        }
    }
    return "";
}

grading::GateResult judgeFind(const std::string& impl, uint64_t n, const std::vector<IndexCase>& cases,
                              const std::vector<uint64_t>& want, const protocol::FindResult& r) {
    if (const std::string problem = findResultProblem(impl, r, cases.size()); !problem.empty()) {
        return grading::GateResult::fail("msw.index", functionName(impl) + ": n = " + std::to_string(n) +
                                                          ": the runner's result is malformed: " + problem);
    }
    // The answers first: a wrong index is the headline, whichever kernel caused it.
    grading::GateResult v = grade::checkIndexBatch(functionName(impl), n, cases, r.got, want);
    if (!v.passed || impl != "two_phase") return v;
    v = grade::checkIndexBatch(kWrapperName, n, cases, r.gotWrapper, want);
    // Then each kernel on its own contract, which a right answer can hide.
    for (size_t k = 0; k < cases.size() && v.passed; ++k) v = grade::checkLaunches(n, cases[k], launchesOf(r, k));
    return v;
}

namespace {

// seq_find_mismatch's answers, computed once for a whole class
// (answer_cache.h): up to 2^21 words scanned a question, 0.1 s or more a case.
std::vector<uint64_t> expectedAnswers(uint64_t n, uint64_t key, const std::vector<IndexCase>& cases) {
    std::vector<uint64_t> questions;  // all the answers depend on besides n and the key
    for (const IndexCase& c : cases) {
        questions.push_back(c.planted.size());
        questions.insert(questions.end(), c.planted.begin(), c.planted.end());
        questions.insert(questions.end(), c.masks.begin(), c.masks.end());
    }
    const std::string name = "msw answers: n " + std::to_string(n) + ", generator key " + std::to_string(key) +
                             ", " + std::to_string(cases.size()) + " questions " + grading::contentKey(questions);
    return grading::answerOnce<uint64_t>(name, [&] { return wants(n, key, cases); });
}

}  // namespace

size_t failingQuestion(const std::string& impl, uint64_t n, const std::vector<IndexCase>& cases,
                       const std::vector<uint64_t>& want, const protocol::FindResult& r) {
    if (!findResultProblem(impl, r, cases.size()).empty()) return cases.size();
    // judgeFind's order: every answer, then every wrapper answer, then each search's launches.
    for (size_t k = 0; k < cases.size(); ++k) {
        if (r.got[k] < 0 || static_cast<uint64_t>(r.got[k]) != want[k]) return k;
    }
    if (impl != "two_phase") return cases.size();
    for (size_t k = 0; k < cases.size(); ++k) {
        if (r.gotWrapper[k] >= 0 && static_cast<uint64_t>(r.gotWrapper[k]) != want[k]) return k;
    }
    for (size_t k = 0; k < cases.size(); ++k) {
        if (!grade::checkLaunches(n, cases[k], launchesOf(r, k)).passed) return k;
    }
    return cases.size();
}

namespace {

// One question of msw.index as one find call, judged as the case would be.
grading::GateResult judgeOne(const std::string& runner, const std::string& impl, uint64_t key, uint64_t stream,
                             const shrink::Input& in, double limitSeconds) {
    const std::vector<IndexCase> cases = {in.question};
    const std::vector<uint64_t> want = wants(in.n, key, cases);
    const std::vector<int32_t> wrapper = impl == "two_phase" ? std::vector<int32_t>{1} : std::vector<int32_t>{};
    const auto reply = callFind(runner, findRequest(impl, in.n, key, cases, wrapper, stream),
                                std::min(limitSeconds, searchSeconds(in.n, 2)));
    if (!reply.ok()) return grading::GateResult::fail("msw.index", reply.problem);
    return judgeFind(impl, in.n, cases, want, reply.result);
}

// The failure, with the smallest input found on which the submission still
// fails the same way (harness/shrink.h), and that input written to a file.
grading::GateResult withSmallestInput(const grading::GateResult& failure, const std::string& runner,
                                      const std::string& impl, const std::string& call, uint64_t key, uint64_t stream,
                                      const shrink::Input& failing, double limitSeconds, bool showsDetails) {
    if (!grading::shrinksFailure(failure, showsDetails)) return failure;
    grading::Shrinker<shrink::Input> s;
    s.candidates = grading::madeAtOnce<shrink::Input>(shrink::candidates);
    s.judge = [&](const shrink::Input& in, double secondsLeft) {
        return judgeOne(runner, impl, key, stream, in, std::min(limitSeconds, secondsLeft));
    };
    const grading::Shrunk<shrink::Input> found = grading::shrinkFailure(failing, failure, s, shrink::kBudget);
    grading::recordFigure("counterexample_words", std::to_string(found.input.n));
    const std::string file = grading::writeCounterexample(call, "txt", shrink::fileText(key, found.input));
    return grading::withSmallestInput(failure, found, shrink::describe(found.input), shrink::wordsText(key, found.input),
                                      file);
}

}  // namespace

grading::GateResult indexCase(const std::string& runner, const std::string& impl, const std::string& call, uint64_t n,
                              uint64_t seed, double limitSeconds, bool zeroWords, bool showsDetails) {
    const uint64_t key = zeroWords ? msw::arrays::kZeroWordsKey : generatorKey(seed, call);
    const uint64_t stream = caseStream(seed, call);
    const std::vector<IndexCase> cases = indexCases(n, stream);
    const std::vector<uint64_t> want = expectedAnswers(n, key, cases);
    const std::vector<int32_t> wrapper = impl == "two_phase" ? wrapperFlags(n, cases) : std::vector<int32_t>{};
    const uint64_t searches = cases.size() + static_cast<uint64_t>(std::count(wrapper.begin(), wrapper.end(), 1));
    const auto reply = callFind(runner, findRequest(impl, n, key, cases, wrapper, stream),
                                std::min(limitSeconds, searchSeconds(n, searches)));
    if (!reply.ok()) {
        const grading::GateResult failed = grading::GateResult::fail("msw.index", reply.problem);
        // A runner that failed inside a search (a guard, a fault) names it.
        std::smatch m;
        const std::regex search("search ([0-9]+) of ([0-9]+)");
        if (!std::regex_search(reply.problem, m, search)) return failed;
        const size_t k = std::stoul(m[1].str());
        if (k >= cases.size()) return failed;
        return withSmallestInput(failed, runner, impl, call, key, stream, {n, cases[k]}, limitSeconds, showsDetails);
    }
    grading::recordFigure("searches_n" + std::to_string(n), std::to_string(cases.size()));
    const grading::GateResult verdict = judgeFind(impl, n, cases, want, reply.result);
    if (verdict.passed) return verdict;
    const size_t k = failingQuestion(impl, n, cases, want, reply.result);
    if (k == cases.size()) return verdict;
    return withSmallestInput(verdict, runner, impl, call, key, stream, {n, cases[k]}, limitSeconds, showsDetails);
}

grading::Reply<protocol::Empty> callEmpty(const std::string& runner, const std::string& impl, double limitSeconds) {
    protocol::EmptyRequest request;
    request.impl = impl;
    return grading::call<protocol::Empty>(runner, request, {limitSeconds, "empty --impl " + impl, false});
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

grading::Reply<protocol::Block> callBlock(const std::string& runner, const std::vector<uint64_t>& ns,
                                          double limitSeconds) {
    protocol::BlockRequest request;
    request.n = ns;
    return grading::call<protocol::Block>(
        runner, request, {limitSeconds, "block for " + std::to_string(ns.size()) + " values of n", false});
}

grading::Reply<protocol::Time> callTime(const std::string& runner, const std::string& impl, uint64_t n, uint64_t key,
                                        const std::vector<IndexCase>& cases, int runs, uint64_t stream,
                                        double limitSeconds, bool exclusiveGpu) {
    EditLists e = editLists(key, cases, stream);
    protocol::TimeRequest request;
    request.impl = impl;
    request.n = n;
    request.key = key;
    request.editStart = std::move(e.start);
    request.editIndex = std::move(e.index);
    request.editValue = std::move(e.value);
    request.runs = runs;
    return grading::call<protocol::Time>(
        runner, request,
        {limitSeconds, "time --impl " + impl + " with n = " + std::to_string(n) + " (" + std::to_string(cases.size()) +
                           " placements, " + std::to_string(runs) + " runs each)",
         exclusiveGpu});
}

}  // namespace msw::cases
