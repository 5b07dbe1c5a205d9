#include "gates.h"

#include <set>

#include "clocked_walk.h"
#include "harness/poison.h"

namespace day38 {

using grading::GateResult;

namespace {

std::string vertexName(const grading::Graph& g, int v) { return "vertex " + std::to_string(v) + " (" + g.word(v) + ")"; }

}  // namespace

GateResult checkDistances(const grading::Graph& g, const std::vector<int>& got, const std::vector<int>& want) {
    const char* id = "38.distances";
    if (got.size() != want.size()) {
        return GateResult::fail(id, "got " + std::to_string(got.size()) + " distances for " +
                                        std::to_string(want.size()) + " vertices");
    }
    for (size_t v = 0; v < want.size(); ++v) {
        if (got[v] != want[v]) {
            return GateResult::fail(id, vertexName(g, static_cast<int>(v)) + ": got " + std::to_string(got[v]) +
                                            ", want " + std::to_string(want[v]));
        }
    }
    return GateResult::pass(id);
}

GateResult checkLevels(long long got, int want) {
    const char* id = "38.levels";
    if (got != want) {
        return GateResult::fail(id, "levels: got " + std::to_string(got) + ", want " + std::to_string(want));
    }
    return GateResult::pass(id);
}

GateResult checkFrontierTotal(const std::vector<int64_t>& levelSizes, int reached) {
    const char* id = "38.frontier_total";
    long long held = 0;
    for (int64_t size : levelSizes) held += size;
    const std::string counts = "frontiers held " + std::to_string(held) + " vertices, want " +
                               std::to_string(reached) + " (the vertices reached)";
    if (held > reached) return GateResult::fail(id, counts + ": a vertex was enqueued more than once");
    if (held < reached) return GateResult::fail(id, counts + ": some reached vertex was never enqueued");
    return GateResult::pass(id);
}

std::vector<int> expectedAfter(const grading::Graph& g, const Expansion& e) {
    std::vector<int> want = e.before;
    for (int u : e.frontier) {
        for (int k = g.rowOffsets[u]; k < g.rowOffsets[u + 1]; ++k) {
            if (want[g.colIndices[k]] < 0) want[g.colIndices[k]] = e.level + 1;
        }
    }
    return want;
}

GateResult checkExpansionDistances(const grading::Graph& g, const Expansion& e, const std::vector<int>& got) {
    GateResult r = checkDistances(g, got, expectedAfter(g, e));
    if (!r.passed) {
        r.message = "one level from a frontier of " + std::to_string(e.frontier.size()) + " at level " +
                    std::to_string(e.level) + ": " + r.message;
    }
    return r;
}

GateResult checkExpansionFrontier(const grading::Graph& g, const Expansion& e, const std::vector<int>& next) {
    const char* id = "38.frontier_total";
    const std::vector<int> want = expectedAfter(g, e);
    std::set<int> seen;
    const std::string where = "one level from a frontier of " + std::to_string(e.frontier.size()) + " at level " +
                              std::to_string(e.level) + ": ";
    for (size_t slot = 0; slot < next.size(); ++slot) {
        const int v = next[slot];
        if (v < 0 || v >= g.vertexCount) {
            return GateResult::fail(id, where + "slot " + std::to_string(slot) + " of the next frontier holds " +
                                            std::to_string(v) + ", not a vertex" +
                                            grading::unwrittenNote(static_cast<uint32_t>(v)));
        }
        if (!seen.insert(v).second) {
            return GateResult::fail(id, where + vertexName(g, v) + " was enqueued more than once");
        }
        if (!(e.before[v] < 0 && want[v] == e.level + 1)) {
            return GateResult::fail(id, where + vertexName(g, v) + " was enqueued, but it is not a newly reached "
                                                "neighbour of the frontier");
        }
    }
    for (int v = 0; v < g.vertexCount; ++v) {
        if (e.before[v] < 0 && want[v] == e.level + 1 && seen.count(v) == 0) {
            return GateResult::fail(id, where + vertexName(g, v) + " was reached but never enqueued");
        }
    }
    return GateResult::pass(id);
}

GateResult checkWalk(const grading::Graph& g, int frontierIndex, const std::vector<int>& frontier,
                     const std::vector<uint32_t>& got, int repeats) {
    const char* id = "38.walk";
    const std::string where = "frontier " + std::to_string(frontierIndex) + ": ";
    if (got.size() != frontier.size()) {
        return GateResult::fail(id, where + "got " + std::to_string(got.size()) + " checksums for a frontier of " +
                                        std::to_string(frontier.size()));
    }
    for (size_t slot = 0; slot < frontier.size(); ++slot) {
        const uint32_t want = grading::walkChecksum(g, frontier[slot], repeats);
        if (got[slot] != want) {
            return GateResult::fail(id, where + "walk wrong at slot " + std::to_string(slot) + ", " +
                                            vertexName(g, frontier[slot]) + " of degree " +
                                            std::to_string(g.degree(frontier[slot])) + ": got " +
                                            std::to_string(got[slot]) + ", want " + std::to_string(want) +
                                            grading::unwrittenNote(got[slot]));
        }
    }
    return GateResult::pass(id);
}

GateResult checkTimedSearches(const grading::Graph& g, const std::vector<int32_t>& sources,
                              const std::vector<int32_t>& timedDist) {
    const char* id = "38.timing";
    const size_t vertices = static_cast<size_t>(g.vertexCount);
    if (timedDist.size() != vertices * sources.size()) {
        return GateResult::fail(id, "the timed searches returned " + std::to_string(timedDist.size()) +
                                        " distances for " + std::to_string(sources.size()) + " searches of " +
                                        std::to_string(vertices) + " vertices");
    }
    for (size_t r = 0; r < sources.size(); ++r) {
        const auto from = timedDist.begin() + static_cast<std::ptrdiff_t>(r * vertices);
        const std::vector<int> got(from, from + static_cast<std::ptrdiff_t>(vertices));
        const GateResult run = checkDistances(g, got, grading::bfsHost(g, sources[r]).dist);
        if (!run.passed) {
            return GateResult::fail(id, "timed search " + std::to_string(r) + " (from vertex " +
                                            std::to_string(sources[r]) + "): " + run.message);
        }
    }
    return GateResult::pass(id);
}

GateResult checkTimings(const std::vector<std::pair<std::string, double>>& figuresMs) {
    return grading::checkPositiveTimes("38.timing", figuresMs);
}

GateResult checkTimedWalkRuns(int level, const std::vector<int64_t>& runDiff, int runs) {
    const char* id = "38.timing";
    if (runDiff.size() != static_cast<size_t>(runs)) {
        return GateResult::fail(id, "the runner checked " + std::to_string(runDiff.size()) + " of level " +
                                        std::to_string(level) + "'s " + std::to_string(runs) + " timed walks");
    }
    for (int r = 0; r < runs; ++r) {
        if (runDiff[r] < 0) continue;
        return GateResult::fail(id, "the timed walk of level " + std::to_string(level) + ", run " + std::to_string(r) +
                                        ": slot " + std::to_string(runDiff[r]) + " is not the course's walk of the " +
                                        "run's own graph: the run did not do its own walk");
    }
    return GateResult::pass(id);
}

uint64_t clockedWalkProof(const grading::Graph& g, const std::vector<int32_t>& frontiers, int repeats, uint64_t key,
                          int run) {
    const Relabel relabel = clockedRelabel(key, run, g.vertexCount);
    const uint64_t runKey = clockedRunKey(key, run);
    uint64_t proof = 0;
    for (size_t slot = 0; slot < frontiers.size(); ++slot) {
        const int v = frontiers[slot];
        uint32_t acc = 0;
        for (int r = 0; r < repeats; ++r) {
            for (int e = g.rowOffsets[v]; e < g.rowOffsets[v + 1]; ++e) {
                acc += static_cast<uint32_t>(relabelled(relabel, g.colIndices[e], g.vertexCount)) ^ static_cast<uint32_t>(r);
            }
        }
        proof += clockedProofTerm(runKey, slot, acc);
    }
    return proof;
}

GateResult checkClockedWalk(const grading::Graph& g, const std::vector<int32_t>& frontiers, int repeats, uint64_t key,
                            const std::vector<uint64_t>& proofs, int runs, const std::vector<int>& checked) {
    const char* id = "38.speed";
    if (proofs.size() != static_cast<size_t>(runs)) {
        return GateResult::fail(id, "the clocked walks proved " + std::to_string(proofs.size()) + " of " +
                                        std::to_string(runs) + " runs");
    }
    for (int run : checked) {
        const uint64_t want = clockedWalkProof(g, frontiers, repeats, key, run);
        if (proofs[run] != want) {
            return GateResult::fail(id, "clocked walk run " + std::to_string(run) + " of " + std::to_string(runs) +
                                            ": proof " + std::to_string(proofs[run]) + ", want " +
                                            std::to_string(want) + ": the timed walks were not all done");
        }
    }
    return GateResult::pass(id);
}

}  // namespace day38
