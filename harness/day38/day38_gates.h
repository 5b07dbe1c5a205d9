#pragma once
// The day 38 gates (grading.md, "Day 38"). Each compares what a runner
// returned with the host references and names the first disagreement.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/gate.h"
#include "harness/graph.h"

namespace day38 {

// Every vertex's GPU distance equals the host BFS's, exactly.
grading::GateResult checkDistances(const grading::Graph& g, const std::vector<int>& got,
                                   const std::vector<int>& want);

// The GPU search ran as many levels as the host's.
grading::GateResult checkLevels(long long got, int want);

// The frontiers together held each reached vertex once. This is what sees a
// duplicate append, which leaves the distances right.
grading::GateResult checkFrontierTotal(const std::vector<int64_t>& levelSizes, int reached);

// One level's walk: got[k] is the checksum for frontier[k].
grading::GateResult checkWalk(const grading::Graph& g, int level, const std::vector<int>& frontier,
                              const std::vector<uint32_t>& got, int repeats);

// Every figure (name, milliseconds) is a real, positive time.
grading::GateResult checkTimings(const std::vector<std::pair<std::string, double>>& figuresMs);

}  // namespace day38
