#pragma once
// What the day 38 gates grade on: the graphs (the shipped word graph, seeded
// graphs a submission has never seen, the instructor's own files), the
// single-level expansions and the walk frontiers built from them, and one
// typed runner call per question. The time limits live here too, in one
// place, each scaled by the work it bounds.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gates.h"
#include "graph.h"
#include "harness/runner_client.h"
#include "protocol.h"

namespace day38::cases {

// ---- time limits: a correct search on a GPU shared with three other
// runners (gpu_slots.h) takes well under a tenth of these.
constexpr double kCallSeconds = 15.0;      // process start, CUDA context, uploads, checks
constexpr double kSecondsPerLevel = 0.02;  // one checked launch and a round trip per level
// A search, expansion or walk whose runner leaves no breadcrumb (one a level
// or frontier, and one a timed run) for this long is stopped as a hang before
// its limit (RunnerCall::stallSeconds).
constexpr double kLevelStallSeconds = 5.0;
double searchSeconds(int levels, bool decoy, int timedRuns = 0);
// A search this many levels deep or more is that many host round trips of
// tiny kernels. On a GPU time-sliced between runner processes each round
// trip waits out the others' slices (the chain's search took 5-17 s on the
// H200 under the suite, against a fraction of a second alone), so its call
// holds the GPU exclusively, as a timed one does.
constexpr int kDeepSearchLevels = 400;

// The "wide" graph's shape: level 1 wider than 2^16 vertices, level 2
// reached over more than 2^21 edges.
constexpr int kWideFrontier = 70000;
constexpr int kWideFan = 31;

// Every seeded choice of a case (a generated graph, an expansion's or a
// walk's frontiers, the timed sources) draws from its own key: SHA-256 of
// the grading seed and what the key is for, so no input tells the seed or
// another input.
uint64_t derive(uint64_t seed, const std::string& purpose);

struct GraphSpec {
    std::string name;  // word_graph, chain, ..., file<k>_<basename>
    bool seeded = false;
    int levelBound = 0;  // no search of it takes more levels: sizes its limits
};
// The graded set: the word graph, the seeded graphs and GRADING_DAY38_GRAPHS.
std::vector<GraphSpec> graphSpecs();

struct GraphCase {
    std::string name;
    grading::Graph graph;
    int source = 0;
    grading::HostBfs host;
};
// Built once per process for each (name, seed); the word graph ignores the seed.
const GraphCase& graphCase(const std::string& name, uint64_t seed);

// A level of the host search with zero-degree vertices put between the
// frontier's others (and first and last): their repeated scan values are
// where the owner search's "last entry" rule matters. Only for graphs that
// have zero-degree vertices and edges.
bool hasExpansionCase(const GraphSpec& spec);
Expansion expansionCase(const GraphCase& c, uint64_t seed);
// The expansion the runner does first, through the same buffers: the host
// level next to `real`'s (the one before it, else the one after), from the
// distances a search would have had there; none when the search has no
// other level with edges to walk.
std::optional<Expansion> expansionDecoy(const GraphCase& c, const Expansion& real, uint64_t seed);

// Walk frontiers: a seeded sample of vertices with zero-degree ones between
// the others, the host search's widest level, and one vertex alone. Never
// the search's own level order, so a walk's input says nothing about the
// distances.
struct WalkFrontiers {
    std::vector<int32_t> frontiers;
    std::vector<int32_t> start;  // k + 1 offsets
    std::vector<int> frontier(size_t k) const { return {frontiers.begin() + start[k], frontiers.begin() + start[k + 1]}; }
};
WalkFrontiers walkFrontiers(const GraphCase& c, uint64_t seed);

// ---- the runner calls
// An untimed search's answer is always shared (three gates judge one
// search); a timed one's where `answer` says.
grading::Reply<protocol::Bfs> search(const std::string& runner, const GraphCase& c, const std::string& mapping,
                                     double limitSeconds, int timedRuns = 0, bool exclusiveGpu = false,
                                     const std::vector<int32_t>& timedSources = {},
                                     grading::Answer answer = grading::Answer::Fresh);
// One untimed search from c.source and no other: a shrunk input's try
// (shrink.h), whose failure must be that search's, not a decoy's.
grading::Reply<protocol::Bfs> searchAlone(const std::string& runner, const GraphCase& c, const std::string& mapping,
                                          double limitSeconds);
// `runs` distinct sources for timed searches of c, in c.source's component
// (so each search does about the same work), drawn from the seed.
std::vector<int32_t> timedSources(const GraphCase& c, uint64_t seed, int runs);
grading::Reply<protocol::Expand> expand(const std::string& runner, const GraphCase& c, const Expansion& e,
                                        const std::optional<Expansion>& decoy, const std::string& mapping,
                                        double limitSeconds);
// With timed frontiers, give each call a key of its own: the later timed
// runs' graphs are relabelled from it (protocol.h, WalkResult).
grading::Reply<protocol::Walk> walk(const std::string& runner, const GraphCase& c, const WalkFrontiers& f,
                                    const std::string& mapping, double limitSeconds,
                                    const std::vector<int32_t>& timeFrontiers = {}, int timedRuns = 0,
                                    bool exclusiveGpu = false, uint64_t key = 0,
                                    grading::Answer answer = grading::Answer::Fresh);

// `runs` runs of the frontiers' walks, each on c's graph relabelled by
// `key` and the run (clocked_walk.h), timed by the grader's clock.
grading::Reply<protocol::ClockedWalk> clockedWalk(const std::string& runner, const GraphCase& c, const WalkFrontiers& f,
                                                  const std::string& mapping, int runs, uint64_t key,
                                                  double limitSeconds, bool exclusiveGpu);

// The frontiers of the host search, level by level, as walk input (the
// report times the course's levels).
WalkFrontiers levelFrontiers(const GraphCase& c);

}  // namespace day38::cases
