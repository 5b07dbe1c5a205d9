// msw, declared: every gate with its points, what it grades and requires,
// and the cases it runs on; and the report. grading.md's "First mismatching
// word" is the human page for the same table.
#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "cases.h"
#include "fast_search.h"
#include "gates.h"
#include "harness/day.h"
#include "harness/text.h"
#include "harness/timing_stats.h"
#include "report.h"

namespace {

using namespace msw::cases;
using grading::CaseContext;
using grading::GateCase;
using grading::GateResult;

const std::vector<std::string> kImpls = {"two_phase", "fast"};  // the exercise, then the instructor's fast search

std::string implText(const std::string& impl) {
    return impl == "two_phase" ? "two-phase search (both overloads, each kernel launch checked)" : "fast search";
}

// One case per impl and size: a find call asking every question at that n.
// The two-phase search runs the student's kernels; the fast search is the
// instructor's (student = false: reference suite only).
std::vector<GateCase> indexCases() {
    std::vector<GateCase> cases;
    for (const std::string& impl : kImpls) {
        for (const SizeSpec& spec : indexSizes()) {
            GateCase c;
            c.name = impl + "_" + spec.name;
            c.what = implText(impl) + (spec.seeded() ? ", n drawn from [" + std::to_string(spec.lo) + ", " +
                                                           std::to_string(spec.hi) + "]"
                                                     : ", n = " + std::to_string(spec.lo)) +
                     (spec.zeroWords ? ", a all zeros (hand-made)" : "");
            c.student = impl == "two_phase";
            c.seeded = true;  // the arrays and the questions come from the seed at every size
            // The bound of the range's largest n with the most questions any size asks.
            c.limitSeconds = searchSeconds(spec.hi, 2 * std::max(maxIndexCases(spec.hi), maxIndexCases(spec.lo)));
            c.run = [impl, spec, name = c.name](const CaseContext& ctx) {
                return indexCase(ctx.runner, impl, "msw.index/" + name, sizeFor(spec, ctx.seed), ctx.seed,
                                 ctx.limitSeconds, spec.zeroWords, ctx.showsDetails);
            };
            cases.push_back(std::move(c));
        }
    }
    return cases;
}

std::vector<GateCase> emptyCases() {
    std::vector<GateCase> cases;
    for (const std::string& impl : kImpls) {
        GateCase c;
        c.name = impl;
        c.what = impl == "two_phase" ? "par_find_mismatch (both overloads), large_block_words and "
                                       "alloc_large_block_to_device with n = 0"
                                     : "fast_find_mismatch with n = 0";
        c.student = false;
        c.limitSeconds = kCallSeconds;
        c.run = [impl](const CaseContext& ctx) {
            const auto reply = callEmpty(ctx.runner, impl, ctx.limitSeconds);
            if (!reply.ok()) return GateResult::fail("msw.empty", reply.problem);
            const msw::protocol::EmptyResult& r = reply.result;
            // Free memory is shared with whatever else runs on the GPU: recorded only.
            grading::recordFigure("free_bytes_before", std::to_string(r.freeBefore));
            grading::recordFigure("free_bytes_after", std::to_string(r.freeAfter));
            if (impl == "fast") return msw::grade::checkEmpty({{kFastName, r.gotFast}}, -1, -1, r.launches);
            grading::recordFigure("block_words_n0", std::to_string(r.blockWords));
            return msw::grade::checkEmpty({{kWrapperName, r.gotWrapper}, {kBlockOverload, r.gotBlock}},
                                          static_cast<int64_t>(r.blockWords), r.allocNull, r.launches);
        };
        cases.push_back(std::move(c));
    }
    return cases;
}

std::vector<GateCase> blockCases() {
    GateCase c;
    c.name = "large_block_words";
    c.what = "large_block_words for n = 1..3000 and squares and their neighbours up to 2^62";
    c.student = false;
    c.limitSeconds = kCallSeconds;
    c.run = [](const CaseContext& ctx) {
        const std::vector<uint64_t> ns = blockSizes();
        const auto reply = callBlock(ctx.runner, ns, ctx.limitSeconds);
        if (!reply.ok()) return GateResult::fail("msw.block", reply.problem);
        return msw::grade::checkBlock(ns, reply.result.blockWords);
    };
    return {c};
}

// ---- the report: each search on 2^24 words, no mismatch, one in the
// middle, one near the start; every timed answer checked like msw.index's.
constexpr uint64_t kReportWords = uint64_t{1} << 24;
constexpr int kReportRuns = 10;

struct Placement {
    std::string name;
    msw::grade::IndexCase question;
};

std::vector<Placement> placements(uint64_t seed) {
    // Seeded positions: a search cannot be tuned to a fixed index.
    const uint64_t middle = kReportWords / 2 + derive(seed, "msw report middle") % (kReportWords / 8);
    const uint64_t start = 500 + derive(seed, "msw report start") % 1000;
    return {{"none", {"identical arrays", {}, {}, {7}}},
            {"middle", {"middle", {middle}, {uint64_t{1} << 40}, {}}},
            {"near start", {"near start", {start}, {uint64_t{1} << 3}, {kReportWords - 1}}}};
}

// Every report figure pools this many calls' runs, so none is one moment's.
constexpr int kReportCalls = 5;

double reportSeconds() { return searchSeconds(kReportWords, 3 * (kReportRuns + msw::protocol::kWarmupRuns)); }

// One timed search the report pools: which search, on how many words,
// asked what, within what limit per call.
struct TimedSearch {
    std::string impl;
    uint64_t n = 0;
    std::vector<msw::grade::IndexCase> questions;
    double limitSeconds = 0;
};

// callTime for every search, kReportCalls rounds of one call each: the
// searches take turns, so each one's runs pool moments spread over the whole
// report rather than one stretch of it (the host's round trips drift over
// seconds). Per search, its replies' runs pooled per placement (placement
// k's at [k * runs, (k + 1) * runs), as in one reply); or its first reply
// that failed, as it was, or came back short, with a problem that says so;
// a search that failed is not called again.
std::vector<grading::Reply<msw::protocol::Time>> pooledTimes(const std::string& runner, uint64_t key, uint64_t stream,
                                                             const std::vector<TimedSearch>& searches) {
    using Reply = grading::Reply<msw::protocol::Time>;
    std::vector<std::vector<Reply>> replies(searches.size());
    std::vector<Reply> pooled(searches.size());  // a failed reply lands here at once
    for (int call = 0; call < kReportCalls; ++call) {
        for (size_t j = 0; j < searches.size(); ++j) {
            if (!pooled[j].ok()) continue;
            const TimedSearch& t = searches[j];
            Reply r = callTime(runner, t.impl, t.n, key, t.questions, kReportRuns, stream, t.limitSeconds, true);
            const size_t runs = t.questions.size() * kReportRuns;
            if (r.ok() && (r.result.ms.size() != runs || r.result.answers.size() != runs)) {
                r.problem = "call " + std::to_string(call + 1) + " of " + std::to_string(kReportCalls) + " returned " +
                            std::to_string(r.result.ms.size()) + " times and " +
                            std::to_string(r.result.answers.size()) + " answers for " + std::to_string(runs) +
                            " timed runs";
            }
            if (r.ok()) replies[j].push_back(std::move(r));
            else pooled[j] = std::move(r);
        }
    }
    for (size_t j = 0; j < searches.size(); ++j) {
        if (!pooled[j].ok()) continue;
        pooled[j] = replies[j].front();
        pooled[j].result.ms.clear();
        pooled[j].result.answers.clear();
        for (size_t k = 0; k < searches[j].questions.size(); ++k) {
            for (const Reply& r : replies[j]) {
                const size_t from = k * kReportRuns, to = from + kReportRuns;
                pooled[j].result.ms.insert(pooled[j].result.ms.end(), r.result.ms.begin() + from,
                                           r.result.ms.begin() + to);
                pooled[j].result.answers.insert(pooled[j].result.answers.end(), r.result.answers.begin() + from,
                                                r.result.answers.begin() + to);
            }
        }
    }
    return pooled;
}

void report(const CaseContext& ctx) {
    const std::vector<Placement> where = placements(ctx.seed);
    std::vector<msw::grade::IndexCase> questions;
    for (const Placement& p : where) questions.push_back(p.question);
    const uint64_t key = generatorKey(ctx.seed, "report");
    const std::vector<uint64_t> want = wants(kReportWords, key, questions);
    // Timed calls from here to the end, a little host work between them:
    // one wait for the GPU, not one per call.
    const grading::ExclusiveGpuScope exclusive;

    // Every search of both tables, timed in turns.
    std::vector<TimedSearch> searches;
    for (const std::string& impl : kImpls) searches.push_back({impl, kReportWords, questions, reportSeconds()});
    std::vector<uint64_t> sizes;
    for (int log2n = 16; log2n <= 24; log2n += 2) {
        const uint64_t n = uint64_t{1} << log2n;
        sizes.push_back(n);
        searches.push_back({kImpls.front(), n, {where.front().question},
                            searchSeconds(n, 3 * (kReportRuns + msw::protocol::kWarmupRuns))});
    }
    const auto replies = pooledTimes(ctx.runner, key, caseStream(ctx.seed, "report"), searches);

    std::vector<msw::SearchTime> rows;
    std::vector<std::string> wrong;
    for (size_t i = 0; i < kImpls.size(); ++i) {
        const std::string& impl = kImpls[i];
        const auto& reply = replies[i];
        const bool absent = !reply.ok() && reply.problem.find(kFastSearchAbsent) != std::string::npos;
        if (!reply.ok() && !absent) wrong.push_back(impl + ": " + reply.problem);
        const size_t runs = kReportCalls * kReportRuns;  // pooledTimes' replies are whole when ok
        for (size_t k = 0; k < where.size(); ++k) {
            msw::SearchTime row;
            row.impl = impl;
            row.placement = where[k].name;
            row.wordsRead = 2 * (want[k] < kReportWords ? want[k] + 1 : kReportWords);
            if (!reply.ok()) {
                row.failure = absent ? "the fast search is instructor-only" : reply.problem;
            } else {
                // Timed work is graded work: each run's answer, by msw.index's rule.
                for (size_t r = 0; r < runs && row.failure.empty(); ++r) {
                    const GateResult v = msw::grade::checkIndex(
                        functionName(impl) + " (timed run " + std::to_string(r) + ")", kReportWords,
                        where[k].question, reply.result.answers[k * runs + r], want[k]);
                    if (!v.passed) {
                        row.failure = "wrong answer: " + v.message;
                        // The exercise's wrong answers are msw.index's to grade; the
                        // table shows them, as the other days' reports do. The
                        // instructor's search must be right.
                        if (impl != kImpls.front()) wrong.push_back(v.message);
                    }
                }
                const std::vector<float> ms(reply.result.ms.begin() + k * runs, reply.result.ms.begin() + (k + 1) * runs);
                const grading::TimingStats s = grading::summarize(ms);
                row.medianMs = s.medianMs;
                row.iqrMs = s.iqrMs();
                if (row.failure.empty()) {
                    std::string figure = "ms_" + impl + "_" + where[k].name;
                    for (char& ch : figure) ch = ch == ' ' ? '_' : ch;
                    grading::recordFigure(figure, grading::formatText("%.4f", row.medianMs));
                }
            }
            rows.push_back(row);
        }
    }
    std::cout << "\n" << msw::searchTimeTable(kReportWords, kReportCalls * kReportRuns, rows) << std::endl;

    // Bandwidth against n: the exercise's search of identical arrays at
    // several sizes (figures gbs_n<n>, the pictures' chart). Wrong answers
    // are msw.index's to grade; the row says so.
    std::cout << "two_phase, identical arrays, median of " << kReportCalls * kReportRuns << " runs (" << kReportCalls << " calls)\n"
              << grading::formatText("  %12s  %9s  %9s\n", "n", "ms", "GB/s read");
    for (size_t i = 0; i < sizes.size(); ++i) {
        const uint64_t n = sizes[i];
        const auto& reply = replies[kImpls.size() + i];
        std::string why;
        if (!reply.ok()) why = reply.problem;
        else if (std::any_of(reply.result.answers.begin(), reply.result.answers.end(), [n](uint64_t a) { return a != n; }))
            why = "wrong answer";
        if (!why.empty()) {
            std::cout << grading::formatText("  %12llu  (no time: %s)\n", static_cast<unsigned long long>(n),
                                             why.substr(0, 200).c_str());
            continue;
        }
        const double ms = grading::summarize(reply.result.ms).medianMs;
        const double gbs = msw::readGBs(2 * n, ms);  // both arrays, whole
        std::cout << grading::formatText("  %12llu  %9.4f  %9.1f\n", static_cast<unsigned long long>(n), ms, gbs);
        grading::recordFigure("gbs_n" + std::to_string(n), grading::formatText("%.1f", gbs));
    }
    std::cout << std::endl;
    if (!wrong.empty()) throw std::runtime_error("the timed searches are not right: " + wrong.front());
}

// The report's figures as the HTML page draws them.
void reportCharts(grading::Day& day) {
    day.heading("msw: first mismatching word");
    day.chart(grading::ChartSpec("msw-times")
        .title("Search time by where the first mismatch is")
        .caption("Median ms of each search that answered right (figures ms_<search>_<placement>).")
        .missing("no search was timed with a right answer (figures ms_<search>_<placement>)")
        .figures("ms_(two_phase|fast)_(\\w+)", {"impl", "placement"}, "ms")
        .vegaLite(R"vl({"width": 460, "height": {"step": 22},
 "transform": [{"calculate": "replace(datum.placement, regexp('_', 'g'), ' ')", "as": "mismatch"}],
 "mark": {"type": "bar", "tooltip": true},
 "encoding": {"y": {"field": "mismatch", "type": "nominal", "title": "first mismatch"}, "yOffset": {"field": "impl"},
              "x": {"field": "ms", "type": "quantitative", "title": "ms (median)"},
              "color": {"field": "impl", "type": "nominal", "title": "search"}}})vl"));
    day.chart(grading::ChartSpec("msw-bandwidth")
        .title("Bandwidth against n")
        .caption("GB/s read at each array size (figures gbs_n<n>).")
        .missing("no size was timed with a right answer (figures gbs_n<n>, the report's sweep over n)")
        .figures("gbs_n([1-9][0-9]*)", {"n"}, "gbs")
        .vegaLite(R"vl({"width": 460, "height": 220,
 "mark": {"type": "line", "point": true, "tooltip": true},
 "encoding": {"x": {"field": "n", "type": "quantitative", "scale": {"type": "log"}, "title": "n (words)"},
              "y": {"field": "gbs", "type": "quantitative", "title": "GB/s read"}}})vl"));
}

}  // namespace

grading::Day grading::declareDay() {
    grading::Day day("msw");
    using grading::GateSpec;
    day.shrinksTo({"msw.index", "n = ([0-9]+)", 256});  // a failure shrinks to 256 words or fewer
    day.gate(GateSpec("msw.index")
                 .title("par_find_mismatch equals seq_find_mismatch, and each kernel keeps its contract")
                 .points(8),
             indexCases());
    day.gate(GateSpec("msw.empty")
                 .title("n = 0 returns 0, launches nothing and allocates nothing huge")
                 .points(1)
                 .grades(grading::Grades::Course),
             emptyCases());
    day.gate(GateSpec("msw.block").title("scratch block size").points(1).grades(grading::Grades::Course), blockCases());
    day.observe("report", 2 * kReportCalls * reportSeconds(), report);
    reportCharts(day);
    return day;
}
