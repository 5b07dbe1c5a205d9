#pragma once
// The day 38 runner protocol: what the grader sends each subcommand and what
// comes back, declared once for both sides (harness/protocol.h). The graph
// travels as CSR arrays: no file, no labels, nothing that names the case.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/protocol.h"

namespace day38::protocol {

using grading::protocol::OneOf;
using grading::protocol::Within;

// Limits every request's fields carry (checked where a request is decoded).
constexpr int32_t kMaxTimedRuns = 1000;
constexpr int32_t kMaxRepeats = 1024;
constexpr int32_t kMaxClockedRuns = 4096;
inline const OneOf kSearchMappings{{"thread", "warp", "edge", "device"}};  // device: the instructor's device-driven search
inline const OneOf kLevelMappings{{"thread", "warp", "edge"}};  // a level or a walk: the device-driven search has none

// The whole level-synchronous search from `source`, through one mapping.
struct BfsRequest {
    std::vector<int32_t> rowOffsets;  // V + 1
    std::vector<int32_t> colIndices;  // both directions of every edge
    int32_t source = 0;
    std::string mapping;              // thread | warp | edge | device
    // A search from here first, through the same buffers: a submission that
    // replays what its first call computed fails the real one.
    std::optional<int32_t> decoySource;
    int32_t timedRuns = 0;            // > 0: also time that many whole searches
    // Timed search i starts from timedSources[i] (one a run, distinct, all in
    // the source's component so each run does about the same work; the
    // grader draws them from the seed; empty: every one from `source`), so
    // no timed search can hand back another's answer. The warm-ups search
    // from timedSources[0].
    std::vector<int32_t> timedSources;
    // 0: the checked search's guard scans and input compares queued behind
    // each level and read at the search's end (two waits a level: the
    // count, and the whole device for work left on another stream). 1: every
    // check waited for after each level, so a failure names the level; the
    // grader asks so only after a search failed.
    int32_t strict = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("row_offsets", s.rowOffsets);
        field("col_indices", s.colIndices);
        field("source", s.source);
        field("mapping", s.mapping, kSearchMappings);
        field("decoy_source", s.decoySource);
        field("timed_runs", s.timedRuns, Within<int32_t>{0, kMaxTimedRuns});
        field("timed_sources", s.timedSources);
        field("strict", s.strict, Within<int32_t>{0, 1});
    }
};

struct BfsResult {
    std::vector<int32_t> dist;        // -1 where unreached
    std::vector<int64_t> levelSizes;  // frontier size per level, the source's first
    std::string stopped;              // why the search had to stop early; "" when it ended normally
    std::vector<float> bfsMs;         // per timed search
    std::vector<int32_t> timedDist;   // every timed search's distances, V a search, back to back

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("dist", s.dist);
        field("level_sizes", s.levelSizes);
        field("stopped", s.stopped);
        field("bfs_ms", s.bfsMs);
        field("timed_dist", s.timedDist);
    }
};

// One level: expand `frontier` (any vertices, in any order, zero-degree
// ones among them) at `level` over distances `dist`.
struct ExpandRequest {
    std::vector<int32_t> rowOffsets;
    std::vector<int32_t> colIndices;
    std::string mapping;
    std::vector<int32_t> dist;
    std::vector<int32_t> frontier;
    int32_t level = 0;
    // When decoyFrontier is not empty: first the expansion of decoyFrontier
    // at decoyLevel over decoyDist (another level, of another size), through
    // the same buffers, so a submission that replays or sizes anything from
    // its first call fails the real one. Its result is not sent back.
    std::vector<int32_t> decoyDist;
    std::vector<int32_t> decoyFrontier;
    int32_t decoyLevel = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("row_offsets", s.rowOffsets);
        field("col_indices", s.colIndices);
        field("mapping", s.mapping, kLevelMappings);
        field("dist", s.dist);
        field("frontier", s.frontier);
        field("level", s.level);
        field("decoy_dist", s.decoyDist);
        field("decoy_frontier", s.decoyFrontier);
        field("decoy_level", s.decoyLevel);
    }
};

struct ExpandResult {
    std::vector<int32_t> dist;  // after the level
    std::vector<int32_t> next;  // the appended frontier, in the order it was written

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("dist", s.dist);
        field("next", s.next);
    }
};

// The isolated neighbour walk over several frontiers, back to back.
struct WalkRequest {
    std::vector<int32_t> rowOffsets;
    std::vector<int32_t> colIndices;
    std::string mapping;
    int32_t repeats = 0;
    std::vector<int32_t> frontiers;      // the frontiers back to back
    std::vector<int32_t> frontierStart;  // k + 1 offsets into frontiers
    std::vector<int32_t> timeFrontiers;  // which of them to time
    int32_t timedRuns = 0;
    uint64_t key = 0;  // the later timed runs' graphs are relabelled from it (WalkResult)

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("row_offsets", s.rowOffsets);
        field("col_indices", s.colIndices);
        field("mapping", s.mapping, kLevelMappings);
        field("repeats", s.repeats, Within<int32_t>{1, kMaxRepeats});
        field("frontiers", s.frontiers);
        field("frontier_start", s.frontierStart);
        field("time_frontiers", s.timeFrontiers);
        field("timed_runs", s.timedRuns, Within<int32_t>{0, kMaxTimedRuns});
        field("key", s.key);
    }
};

// Each timed run of a frontier walks it in buffers of its own. Run 0 walks
// the graph as sent; timedChecksums is its output, graded as a checked
// walk's. Run i > 0 walks the graph with its neighbour ids relabelled by a
// bijection the runner draws on the device from the key, the frontier and
// the run (timedWalkRelabel), and its checksums are checked there against
// the course's warp-per-vertex walk of that graph, bit for bit.
struct WalkResult {
    std::vector<uint32_t> checksums;       // parallel to frontiers
    std::vector<float> walkMs;             // median per timed frontier, in timeFrontiers order
    std::vector<uint32_t> timedChecksums;  // timed run 0's, the timed frontiers back to back
    // Per timed frontier, per timed run: the first slot whose checksum is not
    // the course's walk of the run's own graph; -1 where none.
    std::vector<int64_t> timedRunDiff;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("timed_run_diff", s.timedRunDiff);
        field("checksums", s.checksums);
        field("walk_ms", s.walkMs);
        field("timed_checksums", s.timedChecksums);
    }
};

// A speed gate's measure, timed by the grader's clock around the call: no
// time comes back. `runs` runs, each walking every frontier in turn into
// buffers of its own, the graph relabelled for each run as clocked_walk.h
// says (the runner rewrites the neighbour ids on the device before the run:
// part of every run alike). The answer proves every run was walked: one
// proof per run (clocked_walk.h), which the grader checks for runs it picks.
struct ClockedWalkRequest {
    std::vector<int32_t> rowOffsets;
    std::vector<int32_t> colIndices;
    std::string mapping;
    int32_t repeats = 0;
    std::vector<int32_t> frontiers;      // the frontiers back to back
    std::vector<int32_t> frontierStart;  // k + 1 offsets into frontiers
    int32_t runs = 0;
    uint64_t key = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("row_offsets", s.rowOffsets);
        field("col_indices", s.colIndices);
        field("mapping", s.mapping, kLevelMappings);
        field("repeats", s.repeats, Within<int32_t>{1, kMaxRepeats});
        field("frontiers", s.frontiers);
        field("frontier_start", s.frontierStart);
        field("runs", s.runs, Within<int32_t>{1, kMaxClockedRuns});
        field("key", s.key);
    }
};

struct ClockedWalkResult {
    std::vector<uint64_t> proofs;  // per run

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("proofs", s.proofs);
    }
};

struct Bfs {
    static constexpr const char* kName = "bfs";
    using Request = BfsRequest;
    using Result = BfsResult;
};
struct Expand {
    static constexpr const char* kName = "expand";
    using Request = ExpandRequest;
    using Result = ExpandResult;
};
struct Walk {
    static constexpr const char* kName = "walk";
    using Request = WalkRequest;
    using Result = WalkResult;
};
struct ClockedWalk {
    static constexpr const char* kName = "clocked_walk";
    using Request = ClockedWalkRequest;
    using Result = ClockedWalkResult;
};

}  // namespace day38::protocol
