// Day 38, declared: every gate with its points, what it grades and requires,
// and the cases it runs on; and the report. grading.md's "Day 38" is the
// human page for the same table.
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <regex>

#include "bfs_constants.h"
#include "cases.h"
#include "device_search.h"
#include "gates.h"
#include "harness/day.h"
#include "harness/splitmix64.h"
#include "harness/text.h"
#include "harness/timing_stats.h"
#include "picture.h"
#include "report.h"
#include "shrink.h"

namespace {

using namespace day38::cases;
using grading::CaseContext;
using grading::GateCase;
using grading::GateResult;

// The course's two, then the exercise: each has a level and a walk kernel.
const std::vector<std::string> kMappings = {"thread", "warp", "edge"};
// Whole searches also run the instructor's device-driven search, an
// instructor case in the reference runner only (device_search.h).
const std::vector<std::string> kSearchMappings = {"thread", "warp", "edge", "device"};
constexpr int kTimedRuns = 10;

std::string mappingWhat(const std::string& m) { return m == "device" ? "device-driven search" : m + " mapping"; }

// "the search stopped early" outranks a gate's own verdict: what it checked
// is only part of a search.
GateResult stoppedEarly(const std::string& id, const day38::protocol::BfsResult& r) {
    return GateResult::fail(id, "the search stopped early: " + r.stopped);
}

// A graph case made of a shrunk input (its source the first pinned vertex),
// named as the case it came from: a runner's failure names the graph, and
// the shrunk one must fail the same way.
GraphCase shrunkCase(const day38::shrink::Input& in, const std::string& name) {
    GraphCase g;
    g.name = name;
    g.graph = day38::shrink::graphOf(in);
    g.source = in.pinned.empty() ? 0 : in.pinned.front();
    g.host = grading::bfsHost(g.graph, g.source);
    return g;
}

// What a shrunk input's message and picture show besides its edges: `text`,
// and the distances wanted and got by vertex (empty where the question has none).
struct Shown {
    std::string text;
    std::vector<int> want, got;
};

// The distances a search or an expansion gave back, when the runner answered.
using Got = std::optional<std::vector<int>>;
using Tried = grading::Judged<Got>;

template <class Reply>
Got gotOf(const Reply& r) {
    return r.ok() ? Got(r.result.dist) : std::nullopt;
}

// "want/got by vertex: 0 0/0, 1 1/-1, ..." (the first 16 vertices).
Shown wantGot(const std::vector<int>& want, const Got& got) {
    std::string s = got ? "distance want/got by vertex:" : "distance wanted by vertex:";
    for (size_t v = 0; v < want.size() && v < 16; ++v) {
        s += (v ? ", " : " ") + std::to_string(v) + " " + std::to_string(want[v]);
        if (got) s += "/" + (v < got->size() ? std::to_string((*got)[v]) : std::string("?"));
    }
    return {s + (want.size() > 16 ? ", ..." : ""), want, got.value_or(std::vector<int>{})};
}

// A graph small enough to draw (picture.h): vertices in columns by distance.
constexpr int kPictureVertices = 64;

// The shrunk input as the report draws it. Wrong: every vertex whose distance
// differs, or, where none does (no distances came back, a vertex appended
// twice, a walk), the vertex the failure names.
day38::GraphPicture pictureOf(const day38::shrink::Input& in, const Shown& shown, const std::string& failure) {
    day38::GraphPicture p;
    p.labels = in.words;
    p.edges = in.edges;
    p.want = shown.want;
    p.got = shown.got;
    p.marked = in.pinned;
    p.markedAs = in.question == day38::shrink::Question::Search ? "source" : "frontier";
    if (!p.want.empty() && p.got.size() == p.want.size()) {
        for (size_t v = 0; v < p.want.size(); ++v) {
            if (p.want[v] != p.got[v]) p.wrong.push_back(static_cast<int>(v));
        }
    }
    if (std::smatch m; p.wrong.empty() && std::regex_search(failure, m, std::regex("vertex ([0-9]{1,9})\\b")) &&
                       std::stoi(m[1].str()) < in.vertexCount) {
        p.wrong.push_back(std::stoi(m[1].str()));
    }
    return p;
}

// The failure, with the smallest input found on which the same mapping still
// fails the same way (shrink.h): its edges, its distances (`details`: want
// against what the failing call got on it), a file to grade on, and its
// picture. A gate's first failing case only, and only where the gate's
// details reach the student.
GateResult withSmallestInput(const Tried& failure, const CaseContext& ctx, const std::string& call,
                             const day38::shrink::Input& failing,
                             const std::function<Tried(const day38::shrink::Input&, double)>& judge,
                             const std::function<Shown(const day38::shrink::Input&, const Got&)>& details) {
    if (!grading::shrinksFailure(failure.verdict, ctx.showsDetails)) return failure.verdict;
    grading::Shrinker<day38::shrink::Input, Got> s;
    s.candidates = day38::shrink::candidates;
    s.judge = [&](const day38::shrink::Input& in, double secondsLeft) {
        return judge(in, std::min(ctx.limitSeconds, secondsLeft));
    };
    const auto found = grading::shrinkFailure(failing, failure, s, day38::shrink::kBudget);
    grading::recordFigure("counterexample_vertices", std::to_string(found.input.vertexCount));
    const std::string file = grading::writeCounterexample(call, "txt", day38::shrink::fileText(found.input));
    const Shown shown = details(found.input, found.output);
    if (found.input.vertexCount <= kPictureVertices) {
        if (const auto picture = day38::draw(pictureOf(found.input, shown, found.failure.message))) {
            grading::recordPicture(call, *picture);
        }
    }
    return grading::withSmallestInput(
        failure.verdict, found, day38::shrink::describe(found.input),
        "edges " + day38::shrink::edgesText(found.input) + "; " + shown.text,
        file.empty() ? "" : file + " (grade on it: -DGRADING_DAY38_GRAPHS=" + file + ")");
}

// One case per mapping and graph of the graded set, each a whole search
// judged by `judge`.
template <class Judge>
std::vector<GateCase> searchCases(const std::string& id, Judge judge) {
    std::vector<GateCase> cases;
    for (const std::string& m : kSearchMappings) {
        for (const GraphSpec& spec : graphSpecs()) {
            GateCase c;
            c.name = m + "_" + spec.name;
            c.what = mappingWhat(m) + " on " + spec.name;
            c.student = m == "edge";
            c.seeded = spec.seeded;
            c.limitSeconds = searchSeconds(spec.levelBound, true);
            c.exclusiveGpu = spec.levelBound >= kDeepSearchLevels;  // a bound: the seeded graph may come out shallower
            c.run = [id, judge, m, spec, name = c.name](const CaseContext& ctx) {
                const GraphCase& g = graphCase(spec.name, ctx.seed);
                const int levels = g.host.levels();
                const auto reply = search(ctx.runner, g, m, std::min(ctx.limitSeconds, searchSeconds(levels, true)), 0,
                                          ctx.exclusiveGpu || levels >= kDeepSearchLevels);
                const GateResult verdict = reply.ok() ? judge(g, reply.result) : GateResult::fail(id, reply.problem);
                if (verdict.passed) return verdict;
                const auto once = [&](const GraphCase& small, double seconds) {
                    return searchAlone(ctx.runner, small, m, std::min(seconds, searchSeconds(small.host.levels(), true)));
                };
                return withSmallestInput(
                    {verdict, gotOf(reply)}, ctx, id + "/" + name, day38::shrink::searchInput(g.graph, g.source),
                    [&](const day38::shrink::Input& in, double seconds) -> Tried {
                        const GraphCase small = shrunkCase(in, g.name);
                        const auto r = once(small, seconds);
                        return {r.ok() ? judge(small, r.result) : GateResult::fail(id, r.problem), gotOf(r)};
                    },
                    [&](const day38::shrink::Input& in, const Got& got) {
                        return wantGot(shrunkCase(in, g.name).host.dist, got);
                    });
            };
            cases.push_back(std::move(c));
        }
    }
    return cases;
}

// One level on its own, with zero-degree vertices between the frontier's
// others, per mapping and graph that has them.
template <class Judge>
std::vector<GateCase> expansionCases(const std::string& id, Judge judge) {
    std::vector<GateCase> cases;
    for (const std::string& m : kMappings) {
        for (const GraphSpec& spec : graphSpecs()) {
            if (!hasExpansionCase(spec)) continue;
            GateCase c;
            c.name = "expand_" + m + "_" + spec.name;
            c.what = m + " mapping, one level with zero-degree vertices in the frontier, on " + spec.name;
            c.student = m == "edge";
            c.seeded = true;
            c.limitSeconds = kCallSeconds;
            c.run = [id, judge, m, spec, name = c.name](const CaseContext& ctx) {
                const GraphCase& g = graphCase(spec.name, ctx.seed);
                const day38::Expansion e = expansionCase(g, ctx.seed);
                const auto reply = expand(ctx.runner, g, e, expansionDecoy(g, e, ctx.seed), m, ctx.limitSeconds);
                const GateResult verdict = reply.ok() ? judge(g, e, reply.result) : GateResult::fail(id, reply.problem);
                if (verdict.passed) return verdict;
                const auto once = [&](const GraphCase& small, const day38::shrink::Input& in, double seconds) {
                    return expand(ctx.runner, small, day38::shrink::expansionOf(in), std::nullopt, m, seconds);
                };
                return withSmallestInput(
                    {verdict, gotOf(reply)}, ctx, id + "/" + name, day38::shrink::expansionInput(g.graph, e),
                    [&](const day38::shrink::Input& in, double seconds) -> Tried {
                        const GraphCase small = shrunkCase(in, g.name);
                        const auto r = once(small, in, seconds);
                        return {r.ok() ? judge(small, day38::shrink::expansionOf(in), r.result)
                                       : GateResult::fail(id, r.problem),
                                gotOf(r)};
                    },
                    [](const day38::shrink::Input& in, const Got& got) {
                        return wantGot(day38::expectedAfter(day38::shrink::graphOf(in), day38::shrink::expansionOf(in)), got);
                    });
            };
            cases.push_back(std::move(c));
        }
    }
    return cases;
}

template <class T>
std::vector<T> concat(std::vector<T> a, const std::vector<T>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

GateResult walkGate(const GraphCase& g, const WalkFrontiers& f, const std::vector<uint32_t>& checksums) {
    if (checksums.size() != f.frontiers.size()) {
        return GateResult::fail("38.walk", "got " + std::to_string(checksums.size()) + " checksums for " +
                                               std::to_string(f.frontiers.size()) + " frontier slots");
    }
    for (size_t k = 0; k + 1 < f.start.size(); ++k) {
        const std::vector<uint32_t> got(checksums.begin() + f.start[k], checksums.begin() + f.start[k + 1]);
        GateResult r = day38::checkWalk(g.graph, static_cast<int>(k), f.frontier(k), got, day38::kWalkRepeats);
        if (!r.passed) return r;
    }
    return GateResult::pass("38.walk");
}

std::vector<GateCase> walkCases() {
    std::vector<GateCase> cases;
    for (const std::string& m : kMappings) {
        for (const GraphSpec& spec : graphSpecs()) {
            GateCase c;
            c.name = m + "_" + spec.name;
            c.what = m + " mapping, three frontiers of " + spec.name;
            c.student = m == "edge";
            c.seeded = true;
            c.limitSeconds = kCallSeconds;
            c.run = [m, spec, name = c.name](const CaseContext& ctx) {
                const GraphCase& g = graphCase(spec.name, ctx.seed);
                const WalkFrontiers f = walkFrontiers(g, ctx.seed);
                const auto reply = walk(ctx.runner, g, f, m, ctx.limitSeconds);
                const GateResult verdict =
                    reply.ok() ? walkGate(g, f, reply.result.checksums) : GateResult::fail("38.walk", reply.problem);
                // The frontier the message names, walked alone.
                std::smatch k;
                if (verdict.passed || !std::regex_search(verdict.message, k, std::regex("^frontier ([0-9]+):")) ||
                    std::stoul(k[1].str()) + 1 >= f.start.size()) {
                    return verdict;
                }
                const auto alone = [](const day38::shrink::Input& in) {
                    WalkFrontiers one;
                    one.frontiers.assign(in.pinned.begin(), in.pinned.end());
                    one.start = {0, static_cast<int32_t>(in.pinned.size())};
                    return one;
                };
                return withSmallestInput(
                    verdict, ctx, "38.walk/" + name, day38::shrink::walkInput(g.graph, f.frontier(std::stoul(k[1].str()))),
                    [&](const day38::shrink::Input& in, double seconds) -> Tried {
                        const GraphCase small = shrunkCase(in, g.name);
                        const auto r = walk(ctx.runner, small, alone(in), m, seconds);
                        return r.ok() ? walkGate(small, alone(in), r.result.checksums)
                                      : GateResult::fail("38.walk", r.problem);
                    },
                    [](const day38::shrink::Input& in, const Got&) {
                        std::string degrees = "degree by vertex:";
                        const grading::Graph small = day38::shrink::graphOf(in);
                        for (int v = 0; v < small.vertexCount && v < 16; ++v) {
                            degrees += (v ? ", " : " ") + std::to_string(v) + " " + std::to_string(small.degree(v));
                        }
                        return Shown{degrees};
                    });
            };
            cases.push_back(std::move(c));
        }
    }
    return cases;
}

// The frontiers of the word graph's search worth timing on their own.
std::vector<int32_t> isolatedFrontiers(const GraphCase& g) {
    std::vector<int32_t> out;
    for (int level : day38::isolatedLevels(g.graph, g.host)) out.push_back(level);
    return out;
}

double timingSeconds() { return 2 * kCallSeconds + searchSeconds(64, true, kTimedRuns); }

// 38.timing's timed calls of mapping m on the word graph: kTimedRuns
// searches, each from its own source, and the walks of the isolated levels.
// Their answers are shared: the report asks the same calls of the
// exercise's mapping after the gate, in a class's day test, and reads back
// the runs the gate graded instead of holding the GPU to time them again.
grading::Reply<day38::protocol::Bfs> timedSearchCall(const std::string& runner, const GraphCase& g,
                                                     const std::string& m, uint64_t seed, bool exclusiveGpu) {
    return search(runner, g, m, timingSeconds() / 2, kTimedRuns, exclusiveGpu, timedSources(g, seed, kTimedRuns),
                  grading::Answer::Shared);
}

grading::Reply<day38::protocol::Walk> timedWalkCall(const std::string& runner, const GraphCase& g,
                                                    const std::string& m, uint64_t seed, bool exclusiveGpu) {
    return walk(runner, g, levelFrontiers(g), m, timingSeconds() / 2, isolatedFrontiers(g), kTimedRuns, exclusiveGpu,
                grading::caseSeed(seed, "38.timing/" + m + "/walk keys"), grading::Answer::Shared);
}

// 38.timing: every time positive, and the work that was timed is the graded
// work: every timed search's distances (each from its own source) and every
// timed walk's checksums (run 0's against the host, each later run's, on
// its own relabelled graph, against the course's walk of it in the runner)
// are checked. The device-driven search has no walk: its case
// is the timed searches alone.
std::vector<GateCase> timingCases() {
    std::vector<GateCase> cases;
    for (const std::string& m : kSearchMappings) {
        GateCase c;
        c.name = m + "_word_graph";
        c.what = mappingWhat(m) + " on word_graph, " + std::to_string(kTimedRuns) + " timed searches" +
                 (m == "device" ? "" : " and walks");
        c.student = m == "edge";
        c.limitSeconds = timingSeconds();
        c.run = [m](const CaseContext& ctx) -> GateResult {
            const char* id = "38.timing";
            const GraphCase& g = graphCase("word_graph", ctx.seed);
            const std::vector<int32_t> sources = timedSources(g, ctx.seed, kTimedRuns);
            const auto bfs = timedSearchCall(ctx.runner, g, m, ctx.seed, ctx.exclusiveGpu);
            if (!bfs.ok()) return GateResult::fail(id, "no whole-search time: " + bfs.problem);
            if (!bfs.result.stopped.empty()) return GateResult::fail(id, "no whole-search time: the search stopped early: " + bfs.result.stopped);
            std::vector<std::pair<std::string, double>> figures;
            for (size_t k = 0; k < bfs.result.bfsMs.size(); ++k) {
                figures.emplace_back("whole bfs, timed run " + std::to_string(k), bfs.result.bfsMs[k]);
            }
            if (bfs.result.bfsMs.size() != static_cast<size_t>(kTimedRuns)) figures.emplace_back("whole bfs (timed runs missing)", 0.0);
            // Every timed search, each from its own source.
            const GateResult searches = day38::checkTimedSearches(g.graph, sources, bfs.result.timedDist);
            if (!searches.passed) return searches;
            if (m == "device") return day38::checkTimings(figures);

            const WalkFrontiers levels = levelFrontiers(g);
            const std::vector<int32_t> which = isolatedFrontiers(g);
            const auto w = timedWalkCall(ctx.runner, g, m, ctx.seed, ctx.exclusiveGpu);
            if (!w.ok()) return GateResult::fail(id, "no walk times: " + w.problem);
            for (size_t k = 0; k < w.result.walkMs.size() && k < which.size(); ++k) {
                figures.emplace_back("walk of level " + std::to_string(which[k]), w.result.walkMs[k]);
            }
            if (w.result.walkMs.size() != which.size()) figures.emplace_back("walk times (missing)", 0.0);
            size_t at = 0;
            for (int32_t level : which) {
                const std::vector<int> frontier = levels.frontier(level);
                if (at + frontier.size() > w.result.timedChecksums.size()) {
                    return GateResult::fail(id, "the timed walks returned " + std::to_string(w.result.timedChecksums.size()) +
                                                    " checksums, fewer than the timed levels hold");
                }
                const std::vector<uint32_t> got(w.result.timedChecksums.begin() + at,
                                                w.result.timedChecksums.begin() + at + frontier.size());
                const GateResult r = day38::checkWalk(g.graph, level, frontier, got, day38::kWalkRepeats);
                if (!r.passed) return GateResult::fail(id, "the timed walk of level " + std::to_string(level) + ": " + r.message);
                at += frontier.size();
            }
            for (size_t k = 0; k < which.size(); ++k) {
                const size_t from = k * kTimedRuns;
                if (from + kTimedRuns > w.result.timedRunDiff.size()) {
                    return day38::checkTimedWalkRuns(which[k], {}, kTimedRuns);
                }
                const GateResult r = day38::checkTimedWalkRuns(
                    which[k], {w.result.timedRunDiff.begin() + from, w.result.timedRunDiff.begin() + from + kTimedRuns},
                    kTimedRuns);
                if (!r.passed) return r;
            }
            return day38::checkTimings(figures);
        };
        cases.push_back(std::move(c));
    }
    return cases;
}

// 38.speed: the exercise's neighbour walk of the word graph's isolated levels
// (the load-balance lesson: level 12 holds the hub "the") against the
// instructor's, by the grader's clock (clockedRunMs): calls of
// kClockedWalkRuns runs of every such level and of twice that, each run on
// the graph relabelled its own way (clocked_walk.h), to each runner in turn
// (speedCase). Each call's proofs are checked for kProvenRuns runs drawn
// after it answered, so its answer cannot come before its walks are done.
// Scored on the ramp, worth 0 points unless the instructor gives it some in
// its declaration below.
constexpr int kSpeedRounds = 8;
constexpr int kClockedWalkRuns = 200;  // the solution: 20 ms on the H100, far above the clock's jitter
constexpr int kProvenRuns = 3;

std::vector<GateCase> speedCases() {
    GateCase c;
    c.name = "edge_word_graph";
    c.what = "edge mapping's walk of the word graph's levels with at least " + std::to_string(day38::kWalkMinEdges) +
             " edges, " + std::to_string(kClockedWalkRuns) + " and " + std::to_string(2 * kClockedWalkRuns) +
             " runs a call";
    c.limitSeconds = 2 * kSpeedRounds * 3 * timingSeconds();
    c.run = [](const CaseContext& ctx) {
        const GraphCase& g = graphCase("word_graph", ctx.seed);
        const WalkFrontiers levels = levelFrontiers(g);
        WalkFrontiers isolated;
        isolated.start = {0};
        for (int32_t k : isolatedFrontiers(g)) {
            const std::vector<int> frontier = levels.frontier(k);
            isolated.frontiers.insert(isolated.frontiers.end(), frontier.begin(), frontier.end());
            isolated.start.push_back(static_cast<int32_t>(isolated.frontiers.size()));
        }
        int calls = 0;
        int measures = 0;
        const auto measure = [&](const std::string& runner) -> grading::Expected<std::vector<float>> {
            const grading::ClockedCall call = [&](int runs) -> grading::Expected<double> {
                const std::string name = "38.speed/clocked/" + std::to_string(calls++);
                const uint64_t key = grading::caseSeed(ctx.seed, name);
                const auto got = clockedWalk(runner, g, isolated, "edge", runs, key, timingSeconds(), ctx.exclusiveGpu);
                if (!got.ok()) return grading::Error{got.problem};
                grading::SplitMix64 pick(grading::caseSeed(ctx.seed, name + "/proven"));
                std::vector<int> proven;
                for (int k = 0; k < kProvenRuns; ++k) proven.push_back(static_cast<int>(pick.below(runs)));
                const GateResult proof = day38::checkClockedWalk(g.graph, isolated.frontiers, day38::kWalkRepeats, key,
                                                                 got.result.proofs, runs, proven);
                if (!proof.passed) return grading::Error{"the edge mapping's " + proof.message};
                return got.seconds();
            };
            const uint64_t order = grading::caseSeed(ctx.seed, "38.speed/order/" + std::to_string(measures++));
            const grading::Expected<float> ms = grading::clockedRunMs(call, kClockedWalkRuns, order);
            if (!ms) return grading::Error{ms.error()};
            return std::vector<float>{*ms};
        };
        return grading::speedCase(ctx, "38.speed", "the edge mapping's walks by the grader's clock", kSpeedRounds,
                                  measure);
    };
    return {c};
}

// The course's tables for the shipped graph, with the exercise's kernel as
// the fourth column. The exercise's edge mapping: 38.timing's own calls
// (timedSearchCall, timedWalkCall), read back in a class's day test. The
// course's thread and warp mappings: timed in the course runner (no student
// code beside them; this runner in a kit without one) with their answers
// shared, so a class times them once and each student's report reads back
// the same turns. The instructor's device-driven search: in the
// instructor's runner only.
void report(const CaseContext& ctx) {
    const GraphCase& g = graphCase("word_graph", ctx.seed);
    const WalkFrontiers levels = levelFrontiers(g);
    const std::vector<int32_t> which = isolatedFrontiers(g);
    const std::vector<grading::LevelStats> stats = grading::levelStats(g.graph, g.host);
    // The frontier profile, host counts, for the HTML report's chart.
    for (const grading::LevelStats& s : stats) {
        grading::recordFigure("frontier_level" + std::to_string(s.level), std::to_string(s.frontier));
        grading::recordFigure("edges_level" + std::to_string(s.level), std::to_string(s.edges));
    }
    std::vector<day38::IsolatedLevel> rows;
    for (int32_t level : which) {
        day38::IsolatedLevel row;
        row.level = level;
        row.frontier = stats[level].frontier;
        row.edges = stats[level].edges;
        row.maxDegree = stats[level].maxDegree;
        rows.push_back(row);
    }
    const size_t walkLevels = rows.size();
    const auto walkCell = [&rows](size_t k, const std::string& m) -> double& {
        return m == "thread" ? rows[k].threadMs : m == "warp" ? rows[k].warpMs : rows[k].edgeMs;
    };

    // Each mapping's search times (and, but for the device-driven search,
    // its walk time per isolated level), or why there are none.
    struct Measured {
        std::vector<float> searchMs;
        std::vector<std::vector<float>> walkMs;  // per isolated level: each call's median
        std::string searchFailure, walkFailure;
    };
    std::map<std::string, Measured> measured;

    const auto edgeSearch = timedSearchCall(ctx.runner, g, "edge", ctx.seed, ctx.exclusiveGpu);
    const auto edgeWalk = timedWalkCall(ctx.runner, g, "edge", ctx.seed, ctx.exclusiveGpu);
    Measured& edge = measured["edge"];
    if (!edgeSearch.ok()) edge.searchFailure = edgeSearch.problem;
    else if (!edgeSearch.result.stopped.empty()) edge.searchFailure = "no time: " + edgeSearch.result.stopped;
    else edge.searchMs = edgeSearch.result.bfsMs;
    if (!edgeWalk.ok()) edge.walkFailure = edgeWalk.problem;
    else if (edgeWalk.result.walkMs.size() != walkLevels)
        edge.walkFailure = "times for " + std::to_string(edgeWalk.result.walkMs.size()) + " levels, not " +
                           std::to_string(walkLevels);
    else for (float ms : edgeWalk.result.walkMs) edge.walkMs.push_back({ms});

    // The others take turns, call by call (a whole search, then the isolated
    // walks), so each figure pools moments spread over the whole sampling:
    // the host's round trips, a good part of these times, drift over
    // seconds. Each turn's calls have inputs of their own (sources, keys),
    // so no two are the same request. A mapping whose call fails leaves the
    // turns, its failure kept.
    const std::string& courseRunner = ctx.courseCodeRunner();
    std::vector<std::pair<std::string, std::string>> turns = {{"thread", courseRunner}, {"warp", courseRunner}};
    if (ctx.instructorsRunner()) turns.emplace_back("device", ctx.runner);
    else measured["device"].searchFailure = "instructor-only: not in this runner";
    int turn = 0;
    const auto sets = grading::sampleUntilSteady([&]() -> grading::Expected<std::vector<std::vector<float>>> {
        std::vector<std::vector<float>> sets;
        const std::string t = std::to_string(turn++);
        for (const auto& [m, runner] : turns) {
            Measured& mine = measured[m];
            if (mine.searchFailure.empty()) {
                const uint64_t draw = grading::caseSeed(ctx.seed, "38.report/search/" + m + "/" + t);
                const std::vector<int32_t> sources = timedSources(g, draw, kTimedRuns);
                const auto bfs = search(runner, g, m, timingSeconds(), kTimedRuns, true, sources, grading::Answer::Shared);
                if (!bfs.ok()) mine.searchFailure = bfs.problem;
                else if (bfs.result.bfsMs.empty()) mine.searchFailure = "no time: " + bfs.result.stopped;
                else sets.push_back(bfs.result.bfsMs);
            }
            if (!mine.searchFailure.empty()) sets.emplace_back();
            if (m == "device") continue;  // no walk kernel: whole searches only
            if (mine.walkFailure.empty()) {
                const uint64_t key = grading::caseSeed(ctx.seed, "38.report/walk/" + m + "/" + t);
                const auto w = walk(runner, g, levels, m, timingSeconds(), which, kTimedRuns, true, key,
                                    grading::Answer::Shared);
                if (!w.ok()) mine.walkFailure = w.problem;
                else if (w.result.walkMs.size() != walkLevels)
                    mine.walkFailure = "times for " + std::to_string(w.result.walkMs.size()) + " levels, not " +
                                       std::to_string(walkLevels);
                else for (float ms : w.result.walkMs) sets.push_back({ms});
            }
            if (!mine.walkFailure.empty()) sets.resize(sets.size() + walkLevels);
        }
        return sets;
    });
    size_t set = 0;
    for (const auto& [m, runner] : turns) {
        Measured& mine = measured[m];
        if (!sets) {
            mine.searchFailure = mine.walkFailure = sets.error();
            continue;
        }
        mine.searchMs = (*sets)[set++];
        if (m == "device") continue;
        for (size_t k = 0; k < walkLevels; ++k) mine.walkMs.push_back((*sets)[set++]);
    }

    std::vector<day38::MappingTime> times;
    for (const std::string& m : kSearchMappings) {
        const Measured& mine = measured[m];
        day38::MappingTime t;
        t.mapping = m == "device" ? "device-driven" : m + " per " + (m == "edge" ? "edge" : "vertex");
        if (!mine.searchFailure.empty()) {
            t.failure = mine.searchFailure.find(day38::kDeviceSearchAbsent) != std::string::npos
                            ? "instructor-only: not in this runner"
                            : mine.searchFailure;
        } else {
            const grading::TimingStats st = grading::summarize(mine.searchMs);
            t.ms = st.medianMs;
            t.iqrMs = st.iqrMs();
            grading::recordFigure("bfs_ms_" + m, grading::formatText("%.4f", t.ms));
        }
        times.push_back(t);
        if (m == "device" || !mine.walkFailure.empty() || mine.walkMs.size() != walkLevels) continue;
        // The figure is the median of the calls' per-level medians.
        for (size_t k = 0; k < walkLevels; ++k) {
            double& cell = walkCell(k, m);
            cell = grading::summarize(mine.walkMs[k]).medianMs;
            grading::recordFigure("walk_ms_level" + std::to_string(rows[k].level) + "_" + m,
                                  grading::formatText("%.4f", cell));
        }
    }
    std::cout << "\n" << day38::degreeTable(g.graph, "reference/day38/data/word-graph.txt") << "\n"
              << day38::levelTable(g.graph, g.host, g.source) << "\n"
              << day38::bfsTimeTable(times, g.host.levels()) << "\n"
              << day38::isolatedTable(rows, day38::kWalkRepeats) << std::endl;
}

// The report's figures as the HTML page draws them; the mappings in the
// course's order (thread, warp, then the exercise's), not alphabetical.
void reportCharts(grading::Day& day) {
    day.heading("Day 38: BFS frontier mappings");
    day.chart(grading::ChartSpec("day38-bfs")
        .title("Whole BFS per mapping")
        .caption("Median ms of one search on the course's word graph, every level's launch and host round trip "
            "included (figures bfs_ms_<mapping>; edge is the exercise's kernel, the one graded).")
        .missing("no whole-search times (bfs_ms_<mapping>) were recorded")
        .figures("bfs_ms_(\\w+)", {"name"}, "ms")
        .vegaLite(R"vl({"width": 460, "height": {"step": 26},
 "encoding": {"y": {"field": "name", "type": "nominal", "sort": ["thread", "warp", "edge"], "title": null},
              "x": {"field": "ms", "type": "quantitative", "title": "ms (median)"}},
 "layer": [{"mark": {"type": "bar", "tooltip": true},
            "encoding": {"color": {"field": "name", "type": "nominal", "sort": ["thread", "warp", "edge"],
                                   "legend": null}}},
           {"mark": {"type": "text", "align": "left", "dx": 3},
            "encoding": {"text": {"field": "ms", "format": ".4f"}}}]})vl"));
    day.chart(grading::ChartSpec("day38-levels")
        .title("One level in isolation, per mapping")
        .caption("The neighbour walk of single frontiers, timed alone (figures walk_ms_level<k>_<mapping>).")
        .missing("no isolated-level times (walk_ms_level<k>_<mapping>) were recorded")
        .figures("walk_ms_level([0-9]+)_(\\w+)", {"level", "mapping"}, "ms")
        .vegaLite(R"vl({"width": 460, "height": 240,
 "mark": {"type": "line", "point": true, "tooltip": true},
 "encoding": {"x": {"field": "level", "type": "ordinal"},
              "y": {"field": "ms", "type": "quantitative", "scale": {"type": "log"},
                    "title": "ms, the level's walk (log scale)"},
              "color": {"field": "mapping", "type": "nominal", "sort": ["thread", "warp", "edge"]}}})vl"));
    day.chart(grading::ChartSpec("day38-frontier")
        .title("Frontier profile")
        .caption("Frontier size and edges to walk at each level of the search (host counts, figures "
            "frontier_level<k> and edges_level<k>): where the work is, and why one mapping wins there.")
        .missing("no frontier profile (frontier_level<k>, edges_level<k>) was recorded")
        .figures("(frontier|edges)_level([0-9]+)", {"what", "level"}, "count")
        .vegaLite(R"vl({"width": 560, "height": 220,
 "transform": [{"calculate": "datum.what === 'frontier' ? 'frontier vertices' : 'edges to walk'", "as": "quantity"}],
 "mark": {"type": "bar", "tooltip": true},
 "encoding": {"x": {"field": "level", "type": "ordinal"},
              "xOffset": {"field": "quantity", "sort": ["frontier vertices", "edges to walk"]},
              "y": {"field": "count", "type": "quantitative", "scale": {"type": "symlog"}, "stack": null,
                    "axis": {"values": [0, 1, 10, 100, 1000, 10000], "format": ",d"},
                    "title": "per level (symlog scale)"},
              "color": {"field": "quantity", "type": "nominal", "sort": ["frontier vertices", "edges to walk"],
                        "title": null}}})vl"));
}

}  // namespace

grading::Day grading::declareDay() {
    grading::Day day("day38");
    using grading::GateSpec;
    // A failure shrinks to a graph of 12 vertices or fewer (shrink.h).
    for (const char* gate : {"38.distances", "38.levels", "38.frontier_total", "38.walk"}) {
        day.shrinksTo({gate, "([0-9]+) vertices", 12});
    }
    day.gate(GateSpec("38.distances").title("exact distances").points(4),
             concat(searchCases("38.distances",
                                [](const GraphCase& g, const day38::protocol::BfsResult& r) {
                                    GateResult v = day38::checkDistances(g.graph, r.dist, g.host.dist);
                                    return v.passed && !r.stopped.empty() ? stoppedEarly("38.distances", r) : v;
                                }),
                    expansionCases("38.distances", [](const GraphCase& g, const day38::Expansion& e,
                                                      const day38::protocol::ExpandResult& r) {
                        return day38::checkExpansionDistances(g.graph, e, r.dist);
                    })));
    // Levels and frontier_total judge the searches and expansions distances
    // asked: in a class they run after it, in its test, and read them back.
    day.gate(GateSpec("38.levels").title("level count").points(1).after({"38.distances"}),
             searchCases("38.levels", [](const GraphCase& g, const day38::protocol::BfsResult& r) {
                 GateResult v = day38::checkLevels(static_cast<long long>(r.levelSizes.size()), g.host.levels());
                 if (!r.stopped.empty()) v.message += " (" + r.stopped + ")";
                 return v;
             }));
    day.gate(GateSpec("38.frontier_total").title("no duplicate appends").points(3).after({"38.distances"}),
             concat(searchCases("38.frontier_total",
                                [](const GraphCase& g, const day38::protocol::BfsResult& r) {
                                    GateResult v = day38::checkFrontierTotal(r.levelSizes, g.host.reached());
                                    if (!r.stopped.empty()) v.message += " (" + r.stopped + ")";
                                    return v;
                                }),
                    expansionCases("38.frontier_total", [](const GraphCase& g, const day38::Expansion& e,
                                                           const day38::protocol::ExpandResult& r) {
                        return day38::checkExpansionFrontier(g.graph, e, r.next);
                    })));
    day.gate(GateSpec("38.walk").title("the isolated neighbour walk is the real walk").points(2), walkCases());
    day.gate(GateSpec("38.timing")
                 .title("timings are real, of the graded work")
                 .points(1)
                 .prerequisites({"38.distances"})
                 .timed(true),
             timingCases());
    day.gate(GateSpec("38.speed")
                 .title("the walk's speed against the instructor's (scored on a ramp)")
                 .points(0)
                 .prerequisites({"38.walk"})
                 .timed(true)
                 .scored(true),
             speedCases());
    day.observe("report", (2 + grading::kSteadyMaxCalls * 3 * 2) * timingSeconds(), report);
    reportCharts(day);
    return day;
}
