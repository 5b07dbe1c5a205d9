#pragma once
// The planted off_by_one_search off the GPU, and day 38's shrinking search
// against it with the GPU's seconds modelled: shared by the shrink tests and
// lab/day38/shrink_sweep.cpp, which runs the same search over many seeds.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cases.h"
#include "gates.h"
#include "graph.h"
#include "harness/shrink.h"
#include "shrink.h"

namespace day38::model {

// The day's search against `judge` (Input -> GateResult): its calls
// bounded as on the GPU, its seconds not (this machine's are not the GPU's).
template <class Judge>
grading::Shrunk<shrink::Input> shrinkOnHost(const shrink::Input& start, const grading::GateResult& failure, Judge judge) {
    grading::Shrinker<shrink::Input> s;
    s.candidates = shrink::candidates;
    s.judge = [&judge](const shrink::Input& in, double) { return judge(in); };
    return grading::shrinkFailure(start, failure, s, {shrink::kBudget.calls, 1e9});
}

// The order in which a level's claims land in the next frontier: thread
// order, its reverse, shuffled (as a GPU's atomics may order them
// differently from run to run), or whole warps' claims shuffled, each
// warp's 32 in order.
enum class Claims { InOrder, Reversed, Shuffled, WarpsShuffled };

// The edge mapping's owner search compares with < where the rule is <=, so
// the first edge of each frontier slot but the first is read from the slot
// before it, one past that vertex's row. A read past the column array stands
// for the fault it causes on the GPU: a failure of another shape. `shuffle`
// seeds a shuffled claim order.
inline grading::GateResult offByOneJudge(const shrink::Input& in, Claims claims, uint64_t shuffle = 0) {
    const grading::Graph g = shrink::graphOf(in);
    const int source = in.pinned.front();
    std::vector<int> dist(g.vertexCount, -1);
    dist[source] = 0;
    std::vector<int> frontier{source};
    std::mt19937_64 rng(shuffle);
    for (int level = 0; !frontier.empty(); ++level) {
        std::vector<int> start{0};
        for (int u : frontier) start.push_back(start.back() + g.degree(u));
        std::vector<std::vector<int>> warps;  // the claims, 32 edges' threads to a warp
        for (int e = 0; e < start.back(); ++e) {
            int lo = 0, hi = static_cast<int>(frontier.size()) - 1;
            while (lo < hi) {
                const int mid = lo + (hi - lo + 1) / 2;
                if (start[mid] < e) lo = mid;
                else hi = mid - 1;
            }
            const int at = g.rowOffsets[frontier[lo]] + e - start[lo];
            if (at >= static_cast<int>(g.colIndices.size())) {
                return grading::GateResult::fail(
                    "38.distances", "expandEdgePerThread (edge mapping) at level " + std::to_string(level) +
                                        ": cudaErrorIllegalAddress");
            }
            if (e % 32 == 0) warps.emplace_back();
            const int v = g.colIndices[at];
            if (dist[v] == -1) {
                dist[v] = level + 1;
                warps.back().push_back(v);
            }
        }
        if (claims == Claims::WarpsShuffled) std::shuffle(warps.begin(), warps.end(), rng);
        std::vector<int> next;
        for (const auto& w : warps) next.insert(next.end(), w.begin(), w.end());
        if (claims == Claims::Reversed) std::reverse(next.begin(), next.end());
        if (claims == Claims::Shuffled) std::shuffle(next.begin(), next.end(), rng);
        frontier = std::move(next);
    }
    return checkDistances(g, dist, grading::bfsHost(g, source).dist);
}

inline bool faulted(const grading::GateResult& r) { return r.message.find("Illegal") != std::string::npos; }

// A try that faults restarts the runner: about 1.3 s under the GPU suite's
// load (on the H200, 22 faults and 7 other tries took 30 s); any other try
// about 0.1 s.
constexpr double kFaultSeconds = 1.3, kTrySeconds = 0.1;

struct TimedSearch {
    grading::Shrunk<shrink::Input> found;
    double seconds = 0;  // modelled
    int faults = 0;
};

// The day's search from `start` within its seconds as modelled, each try's
// claims in a new order (seeded from `seed`). Once the seconds are spent
// every try passes: the search ends where it got to.
inline TimedSearch shrinkWithinModelledSeconds(const shrink::Input& start, const grading::GateResult& failure,
                                               Claims claims, uint64_t seed) {
    double seconds = 0;
    int tries = 0, faults = 0;
    auto found = shrinkOnHost(start, failure, [&](const shrink::Input& in) {
        if (seconds >= shrink::kBudget.seconds) return grading::GateResult::pass("38.distances");
        grading::GateResult r = offByOneJudge(in, claims, seed * 1000 + ++tries);
        faults += faulted(r);
        seconds += faulted(r) ? kFaultSeconds : kTrySeconds;
        return r;
    });
    return {std::move(found), seconds, faults};
}

// The search from seed `seed`'s graded components graph, which the model
// fails from vertex 0 with its claims so ordered; none where it passes or
// faults there (the search shrinks a wrong distance).
inline std::optional<TimedSearch> componentsSearch(uint64_t seed, Claims claims) {
    const shrink::Input start = shrink::searchInput(cases::graphCase("components", seed).graph, 0);
    const grading::GateResult failure = offByOneJudge(start, claims, seed);
    if (failure.passed || faulted(failure)) return std::nullopt;
    return shrinkWithinModelledSeconds(start, failure, claims, seed);
}

}  // namespace day38::model
