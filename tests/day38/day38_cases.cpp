#include "day38_cases.h"

#include <cctype>
#include <fstream>
#include <stdexcept>

#include "bfs_constants.h"
#include "day38_gates.h"
#include "harness/graph_generators.h"

namespace day38::cases {

namespace {

// Instructors' own graph files (GRADING_DAY38_GRAPHS at configure time), one
// path per line of the list CMake writes.
std::vector<std::string> extraGraphFiles() {
    std::vector<std::string> files;
    std::ifstream list(DAY38_EXTRA_GRAPHS_FILE);
    std::string line;
    while (std::getline(list, line)) {
        if (!line.empty()) files.push_back(line);
    }
    return files;
}

// "file<k>_<basename>" with only the characters a gtest name allows.
std::string extraGraphName(size_t k, const std::string& path) {
    std::string base = path.substr(path.find_last_of('/') + 1);
    for (char& ch : base) {
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    }
    return "file" + std::to_string(k) + "_" + base;
}

}  // namespace

std::vector<std::string> graphNames() {
    std::vector<std::string> names = {"word_graph", "chain", "star", "rmat", "grid", "components", "single_vertex"};
    const std::vector<std::string> files = extraGraphFiles();
    for (size_t k = 0; k < files.size(); ++k) names.push_back(extraGraphName(k, files[k]));
    return names;
}

std::vector<std::string> mappings() { return {"thread", "warp", "edge"}; }

GraphCase makeGraphCase(const std::string& name, uint64_t seed) {
    GraphCase c;
    c.name = name;
    if (name == "word_graph") {
        c.file = std::string(GRADING_SOURCE_DIR) + "/data/word-graph.txt";
        grading::Expected<grading::Graph> g = grading::loadGraph(c.file);
        if (!g) throw std::runtime_error(g.error());
        c.graph = std::move(g).value();
        c.source = grading::findVertex(c.graph, grading::commentValue(c.graph, "default source"));
        if (c.source < 0) throw std::runtime_error(c.file + " names no default source it holds");
        return c;
    }
    // Sizes are small enough for a quick run and large enough to need many
    // blocks, many levels or a very wide vertex.
    if (name == "chain") {
        c.graph = grading::chainGraph(1500);
    } else if (name == "star") {
        c.graph = grading::starGraph(40000);
        c.source = 1;  // a leaf: the hub alone is the next frontier
    } else if (name == "rmat") {
        c.graph = grading::rmatGraph(15, 16, seed);
        c.source = grading::highestDegreeVertex(c.graph);
    } else if (name == "grid") {
        c.graph = grading::gridGraph(256, 192);
    } else if (name == "components") {
        c.graph = grading::componentsGraph(seed);
    } else if (name == "single_vertex") {
        c.graph = grading::singleVertexGraph();
    } else if (name == "bipartite") {
        c.graph = grading::bipartiteGraph(256, 256);
    } else if (name.rfind("file", 0) == 0) {
        const std::vector<std::string> files = extraGraphFiles();
        const size_t k = std::stoul(name.substr(4));
        if (k >= files.size()) throw std::runtime_error("no graph file for " + name);
        grading::Expected<grading::Graph> g = grading::loadAnyGraph(files[k]);
        if (!g) throw std::runtime_error(g.error());
        c.graph = std::move(g).value();
        c.source = grading::highestDegreeVertex(c.graph);
    } else {
        throw std::runtime_error("no graph case named " + name);
    }
    c.graph.comments = {" graded as " + name + ", seed " + std::to_string(seed)};
    c.dir = std::make_shared<grading::TempDir>();
    c.file = c.dir->file(name + ".txt");
    if (!grading::saveGraph(c.file, c.graph)) throw std::runtime_error("cannot write " + c.file);
    return c;
}

namespace {

template <typename T>
void take(const grading::Expected<T>& field, T* into, std::string* error) {
    if (field) {
        *into = field.value();
    } else if (error->empty()) {
        *error = field.error();
    }
}

}  // namespace

BfsRun runBfs(const std::string& runner, const GraphCase& c, const std::string& mapping, int timedRuns,
              double timeLimitSeconds) {
    BfsRun r;
    grading::RunnerCall call;
    call.runner = runner;
    call.subcommand = "bfs";
    call.args = {"--graph", c.file, "--source", std::to_string(c.source), "--mapping", mapping};
    if (c.graph.vertexCount > 1) {
        // A neighbour: a search whose replay would be wrong almost everywhere,
        // with the same far end as the real one.
        const int decoy = c.graph.degree(c.source) > 0 ? c.graph.colIndices[c.graph.rowOffsets[c.source]]
                                                       : (c.source + 1) % c.graph.vertexCount;
        call.args.push_back("--decoy-source");
        call.args.push_back(std::to_string(decoy));
    }
    if (timedRuns > 0) {
        call.args.push_back("--time-runs");
        call.args.push_back(std::to_string(timedRuns));
    }
    call.label = "bfs --mapping " + mapping + " on " + c.name;
    call.timeLimitSeconds = timeLimitSeconds;
    r.outcome = grading::callRunner(call);
    if (!r.outcome.ok()) return r;
    const grading::Record& out = r.outcome.result;
    std::vector<int32_t> dist;
    take(out.ints("dist"), &dist, &r.fieldError);
    r.dist.assign(dist.begin(), dist.end());
    take(out.int64s("level_sizes"), &r.levelSizes, &r.fieldError);
    int64_t levels = 0;
    take(out.integer("levels"), &levels, &r.fieldError);
    r.levels = levels;
    if (out.has("stopped")) r.stopped = out.text("stopped").value();
    if (timedRuns > 0 && r.stopped.empty()) take(out.floats("bfs_ms"), &r.bfsMs, &r.fieldError);
    return r;
}

WalkRun runWalk(const std::string& runner, const GraphCase& c, const grading::HostBfs& bfs,
                const std::string& mapping, int repeats, const std::vector<int>& timeLevels, int timedRuns) {
    WalkRun r;
    grading::Record input;
    input.putInts("frontier", bfs.order);
    input.putInts("level_start", bfs.levelStart);
    input.putInts("time_levels", timeLevels);
    grading::RunnerCall call;
    call.runner = runner;
    call.subcommand = "walk";
    call.args = {"--graph", c.file, "--mapping", mapping, "--repeats", std::to_string(repeats)};
    if (timedRuns > 0) {
        call.args.push_back("--time-runs");
        call.args.push_back(std::to_string(timedRuns));
    }
    call.input = &input;
    call.label = "walk --mapping " + mapping + " on " + c.name;
    call.timeLimitSeconds = 30.0;
    r.outcome = grading::callRunner(call);
    if (!r.outcome.ok()) return r;
    take(r.outcome.result.uints("checksums"), &r.checksums, &r.fieldError);
    if (timedRuns > 0) take(r.outcome.result.floats("walk_ms"), &r.walkMs, &r.fieldError);
    return r;
}

grading::GateResult evaluate(const std::string& gate, const std::string& runner, const GraphCase& c,
                             const grading::HostBfs& host, const std::string& mapping) {
    using grading::GateResult;
    if (gate == "38.walk") {
        const WalkRun run = runWalk(runner, c, host, mapping, kWalkRepeats);
        if (!run.outcome.ok()) return GateResult::fail(gate, run.outcome.message);
        if (!run.fieldError.empty()) return GateResult::fail(gate, "the runner's result is incomplete: " + run.fieldError);
        if (run.checksums.size() != host.order.size()) {
            return GateResult::fail(gate, "got " + std::to_string(run.checksums.size()) + " checksums for " +
                                              std::to_string(host.order.size()) + " frontier slots");
        }
        for (int level = 0; level < host.levels(); ++level) {
            const std::vector<uint32_t> got(run.checksums.begin() + host.levelStart[level],
                                            run.checksums.begin() + host.levelStart[level + 1]);
            GateResult r = checkWalk(c.graph, level, host.frontier(level), got, kWalkRepeats);
            if (!r.passed) return r;
        }
        return GateResult::pass(gate);
    }
    const BfsRun run = runBfs(runner, c, mapping);
    if (!run.outcome.ok()) return GateResult::fail(gate, run.outcome.message);
    if (!run.fieldError.empty()) return GateResult::fail(gate, "the runner's result is incomplete: " + run.fieldError);
    if (gate == "38.distances") {
        GateResult r = checkDistances(c.graph, run.dist, host.dist);
        if (r.passed && !run.stopped.empty()) r = GateResult::fail(gate, "the search stopped early: " + run.stopped);
        return r;
    }
    if (gate == "38.levels") return checkLevels(run.levels, host.levels());
    if (gate == "38.frontier_total") {
        GateResult r = checkFrontierTotal(run.levelSizes, host.reached());
        if (!run.stopped.empty()) r.message += " (" + run.stopped + ")";
        return r;
    }
    throw std::invalid_argument("no day 38 gate named " + gate);
}

}  // namespace day38::cases
