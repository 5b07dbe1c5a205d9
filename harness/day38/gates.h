#pragma once
// The day 38 gates (grading.md, "Day 38"): plain host functions over what a
// runner returned and the host references; each names the first
// disagreement. day.cpp declares which cases each one runs on.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph.h"
#include "harness/gate.h"

namespace day38 {

// Every vertex's GPU distance equals the host BFS's, exactly.
grading::GateResult checkDistances(const grading::Graph& g, const std::vector<int>& got,
                                   const std::vector<int>& want);

// The GPU search ran as many levels as the host's.
grading::GateResult checkLevels(long long got, int want);

// The frontiers together held each reached vertex once. This is what sees a
// duplicate append, which leaves the distances right.
grading::GateResult checkFrontierTotal(const std::vector<int64_t>& levelSizes, int reached);

// One level expanded on its own: `frontier` at `level` over `before`. The
// distances after it must be the host's (every unvisited neighbour of the
// frontier at level + 1, nothing else changed) and `next` must hold each
// newly reached vertex exactly once.
struct Expansion {
    std::vector<int> before;    // distances handed in
    std::vector<int> frontier;  // any vertices, zero-degree ones among them
    int level = 0;
};
std::vector<int> expectedAfter(const grading::Graph& g, const Expansion& e);
grading::GateResult checkExpansionDistances(const grading::Graph& g, const Expansion& e, const std::vector<int>& got);
grading::GateResult checkExpansionFrontier(const grading::Graph& g, const Expansion& e, const std::vector<int>& next);

// One frontier's walk: got[k] is the checksum for frontier[k].
grading::GateResult checkWalk(const grading::Graph& g, int frontierIndex, const std::vector<int>& frontier,
                              const std::vector<uint32_t>& got, int repeats);

// 38.timing: timed search r started from sources[r], and its distances are
// timedDist's r-th run of V entries (the runs back to back). Each must equal
// the host's search from its source; else the run, its source and the first
// wrong vertex are named, got and want.
grading::GateResult checkTimedSearches(const grading::Graph& g, const std::vector<int32_t>& sources,
                                       const std::vector<int32_t>& timedDist);

// Every figure (name, milliseconds) is a real, positive time.
grading::GateResult checkTimings(const std::vector<std::pair<std::string, double>>& figuresMs);

// 38.timing: every timed walk of a frontier did its own work: runDiff[i]
// (the runner's device check of run i's checksums against the course's walk
// of run i's own relabelled graph, protocol.h) is -1 for each of `runs`
// runs; else it names the run and the slot.
grading::GateResult checkTimedWalkRuns(int level, const std::vector<int64_t>& runDiff, int runs);

// What a clocked walk's run must prove (clocked_walk.h): the frontiers,
// back to back (slots run on from one to the next), walked on g relabelled
// for `run`.
uint64_t clockedWalkProof(const grading::Graph& g, const std::vector<int32_t>& frontiers, int repeats, uint64_t key,
                          int run);

// 38.speed: each run in `checked` proved its walks: proofs[run] is
// clockedWalkProof's; else the run is named, got and want.
grading::GateResult checkClockedWalk(const grading::Graph& g, const std::vector<int32_t>& frontiers, int repeats,
                                     uint64_t key, const std::vector<uint64_t>& proofs, int runs,
                                     const std::vector<int>& checked);

}  // namespace day38
