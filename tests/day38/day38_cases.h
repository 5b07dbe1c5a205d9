#pragma once
// What the day 38 suites grade on, and one runner call per question asked.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/gate.h"
#include "harness/graph.h"
#include "harness/runner_client.h"

namespace day38::cases {

// The shipped word graph plus seeded graphs the submission has never seen.
std::vector<std::string> graphNames();

struct GraphCase {
    std::string name;
    grading::Graph graph;
    int source = 0;
    std::string file;  // what the runner reads
    std::shared_ptr<grading::TempDir> dir;  // holds a generated file while the case lives
};

// Generated graphs depend on `seed`; the word graph does not.
GraphCase makeGraphCase(const std::string& name, uint64_t seed);

struct BfsRun {
    grading::RunnerOutcome outcome;
    std::vector<int> dist;
    std::vector<int64_t> levelSizes;
    long long levels = 0;
    std::string stopped;      // set when the runner had to stop the search
    std::string fieldError;   // set when the result lacked a field
    std::vector<float> bfsMs;
};

BfsRun runBfs(const std::string& runner, const GraphCase& c, const std::string& mapping, int timedRuns = 0,
              double timeLimitSeconds = 30.0);

struct WalkRun {
    grading::RunnerOutcome outcome;
    std::vector<uint32_t> checksums;  // parallel to the host BFS order
    std::vector<float> walkMs;        // per timed level
    std::string fieldError;
};

// Walks every level of the host BFS from the case's source; times `timeLevels`.
WalkRun runWalk(const std::string& runner, const GraphCase& c, const grading::HostBfs& bfs,
                const std::string& mapping, int repeats, const std::vector<int>& timeLevels = {},
                int timedRuns = 0);

std::vector<std::string> mappings();  // thread, warp, edge

// One gate ("38.distances", "38.levels", "38.frontier_total" or "38.walk")
// for one mapping on one case. A runner that hangs, faults or stops early
// fails the gate with the runner's own message.
grading::GateResult evaluate(const std::string& gate, const std::string& runner, const GraphCase& c,
                             const grading::HostBfs& host, const std::string& mapping);

}  // namespace day38::cases
