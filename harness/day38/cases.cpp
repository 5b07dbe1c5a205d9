#include "cases.h"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

#include "bfs_constants.h"
#include "graph_generators.h"
#include "harness/day.h"

namespace day38::cases {

namespace {

// Instructors' own graph files (GRADING_DAY38_GRAPHS at configure time).
std::vector<grading::InstructorFile> graphFiles() { return grading::instructorFiles(DAY38_EXTRA_GRAPHS_FILE); }

grading::Graph loadOrThrow(const std::string& path, bool anyFormat) {
    grading::Expected<grading::Graph> g = anyFormat ? grading::loadAnyGraph(path) : grading::loadGraph(path);
    if (!g) throw std::runtime_error(g.error());
    return std::move(g).value();
}

std::string wordGraphFile() { return std::string(GRADING_COURSE_DIR) + "/data/word-graph.txt"; }

GraphCase build(const std::string& name, uint64_t seed) {
    GraphCase c;
    c.name = name;
    // Sizes are small enough for a quick run and large enough to need many
    // blocks, many levels or a very wide vertex.
    if (name == "word_graph") {
        c.graph = loadOrThrow(wordGraphFile(), false);
        c.source = grading::findVertex(c.graph, grading::commentValue(c.graph, "default source"));
        if (c.source < 0) throw std::runtime_error(wordGraphFile() + " names no default source it holds");
    } else if (name == "chain") {
        c.graph = grading::chainGraph(1500);
    } else if (name == "star") {
        c.graph = grading::starGraph(40000);
        c.source = 1;  // a leaf: the hub alone is the next frontier
    } else if (name == "rmat") {
        c.graph = grading::rmatGraph(15, 16, derive(seed, "rmat graph"));
        c.source = grading::highestDegreeVertex(c.graph);
    } else if (name == "grid") {
        c.graph = grading::gridGraph(256, 192);
    } else if (name == "components") {
        c.graph = grading::componentsGraph(derive(seed, "components graph"));
    } else if (name == "single_vertex") {
        c.graph = grading::singleVertexGraph();
    } else if (name == "bipartite") {
        // Every level-1 thread walks side B in the same order: the threads race
        // for the same vertices at once, which a plain claim turns into duplicates.
        c.graph = grading::bipartiteGraph(256, 256);
    } else if (name == "wide") {
        // The limits: a frontier of more than 65,536 vertices (70,000), and a
        // level expanded over more than 2^21 edges (70,000 x 31 + 70,000 back).
        c.graph = grading::wideGraph(kWideFrontier, kWideFan);
    } else if (name.rfind("file", 0) == 0) {
        const std::vector<grading::InstructorFile> files = graphFiles();
        const auto file = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.caseName == name; });
        if (file == files.end()) throw std::runtime_error("no graph file for " + name);
        c.graph = loadOrThrow(file->path, true);
        // A counterexample file names its source ("# default source: v3"); any other, the hub.
        c.source = grading::findVertex(c.graph, grading::commentValue(c.graph, "default source"));
        if (c.source < 0) c.source = grading::highestDegreeVertex(c.graph);
    } else {
        throw std::runtime_error("no graph case named " + name);
    }
    c.host = grading::bfsHost(c.graph, c.source);
    return c;
}

// A vertex next to the source: a search whose replay would be wrong almost
// everywhere, with the same far end as the real one.
std::optional<int32_t> decoyFor(const GraphCase& c) {
    if (c.graph.vertexCount < 2) return std::nullopt;
    return c.graph.degree(c.source) > 0 ? c.graph.colIndices[c.graph.rowOffsets[c.source]]
                                        : (c.source + 1) % c.graph.vertexCount;
}

std::vector<int> zeroDegreeVertices(const grading::Graph& g) {
    std::vector<int> zeros;
    for (int v = 0; v < g.vertexCount; ++v) {
        if (g.degree(v) == 0) zeros.push_back(v);
    }
    return zeros;
}

// `others` with `zeros` put first, last, and between others at seeded places.
std::vector<int> interleave(std::vector<int> others, std::vector<int> zeros, grading::SplitMix64& rng) {
    if (zeros.empty()) return others;
    std::vector<int> out;
    out.push_back(zeros.back());
    zeros.pop_back();
    for (size_t i = 0; i < others.size(); ++i) {
        out.push_back(others[i]);
        // A run of zero-degree vertices every few entries, up to three long.
        if (!zeros.empty() && i + 1 < others.size() && rng.below(4) == 0) {
            for (uint64_t k = 1 + rng.below(3); k > 0 && !zeros.empty(); --k) {
                out.push_back(zeros.back());
                zeros.pop_back();
            }
        }
    }
    if (!zeros.empty()) out.push_back(zeros.back());
    return out;
}

int widestLevel(const grading::HostBfs& host) {
    int best = 0;
    for (int l = 0; l < host.levels(); ++l) {
        if (host.levelStart[l + 1] - host.levelStart[l] > host.levelStart[best + 1] - host.levelStart[best]) best = l;
    }
    return best;
}

}  // namespace

uint64_t derive(uint64_t seed, const std::string& purpose) { return grading::caseSeed(seed, "day38 " + purpose); }

double searchSeconds(int levels, bool decoy, int timedRuns) {
    return kCallSeconds + kSecondsPerLevel * levels * (decoy ? 2 : 1) * (1 + timedRuns);
}

std::vector<GraphSpec> graphSpecs() {
    std::vector<GraphSpec> specs = {
        {"word_graph", false, 64}, {"chain", false, 1500},        {"star", false, 3},
        {"rmat", true, 64},        {"grid", false, 448},          {"components", true, 400},
        {"single_vertex", false, 1}, {"bipartite", false, 3}, {"wide", false, 3},
    };
    for (const grading::InstructorFile& file : graphFiles()) {
        // Read once here, so a broken file fails every case with its message.
        int bound = 1;
        if (const grading::Expected<grading::Graph> g = grading::loadAnyGraph(file.path); g) bound = g->vertexCount;
        specs.push_back({file.caseName, false, bound});
    }
    return specs;
}

const GraphCase& graphCase(const std::string& name, uint64_t seed) {
    static std::map<std::pair<std::string, uint64_t>, std::unique_ptr<GraphCase>> cache;
    auto& slot = cache[{name, seed}];
    if (!slot) slot = std::make_unique<GraphCase>(build(name, seed));
    return *slot;
}

bool hasExpansionCase(const GraphSpec& spec) {
    return spec.name == "components" || spec.name == "rmat" || spec.name.rfind("file", 0) == 0;
}

Expansion expansionCase(const GraphCase& c, uint64_t seed) {
    grading::SplitMix64 rng(derive(seed, "expansion of " + c.name));
    Expansion e;
    e.level = widestLevel(c.host);
    // What a search would have seen before this level: everything up to it.
    e.before = c.host.dist;
    for (int& d : e.before) {
        if (d > e.level) d = -1;
    }
    std::vector<int> others = c.host.frontier(e.level);
    grading::shuffle(others, rng);
    std::vector<int> zeros = zeroDegreeVertices(c.graph);
    grading::shuffle(zeros, rng);
    zeros.resize(std::min<size_t>(zeros.size(), 64));
    for (int z : zeros) e.before[z] = e.level;  // they are in the frontier
    e.frontier = interleave(others, zeros, rng);
    return e;
}

std::optional<Expansion> expansionDecoy(const GraphCase& c, const Expansion& real, uint64_t seed) {
    const auto hasEdges = [&c](int level) {
        if (level < 0 || level >= c.host.levels()) return false;
        for (int v : c.host.frontier(level)) {
            if (c.graph.degree(v) > 0) return true;
        }
        return false;
    };
    const int level = hasEdges(real.level - 1) ? real.level - 1 : real.level + 1;
    if (!hasEdges(level)) return std::nullopt;
    grading::SplitMix64 rng(derive(seed, "expansion decoy of " + c.name));
    Expansion e;
    e.level = level;
    e.before = c.host.dist;
    for (int& d : e.before) {
        if (d > level) d = -1;
    }
    e.frontier = c.host.frontier(level);
    grading::shuffle(e.frontier, rng);
    return e;
}

WalkFrontiers walkFrontiers(const GraphCase& c, uint64_t seed) {
    grading::SplitMix64 rng(derive(seed, "walk frontiers of " + c.name));
    const grading::Graph& g = c.graph;
    std::vector<int> all(g.vertexCount);
    for (int v = 0; v < g.vertexCount; ++v) all[v] = v;
    grading::shuffle(all, rng);
    std::vector<int> zeros;
    std::vector<int> others;
    for (int v : all) (g.degree(v) == 0 ? zeros : others).push_back(v);
    others.resize(std::min<size_t>(others.size(), 3000));
    zeros.resize(std::min<size_t>(zeros.size(), 64));

    WalkFrontiers f;
    f.start.push_back(0);
    const auto add = [&f](const std::vector<int>& frontier) {
        f.frontiers.insert(f.frontiers.end(), frontier.begin(), frontier.end());
        f.start.push_back(static_cast<int32_t>(f.frontiers.size()));
    };
    add(interleave(others, zeros, rng));
    std::vector<int> widest = c.host.frontier(widestLevel(c.host));
    grading::shuffle(widest, rng);
    add(widest);
    add({zeros.empty() ? all.front() : zeros.front()});
    return f;
}

WalkFrontiers levelFrontiers(const GraphCase& c) {
    WalkFrontiers f;
    f.frontiers = c.host.order;
    f.start = c.host.levelStart;
    return f;
}

std::vector<int32_t> timedSources(const GraphCase& c, uint64_t seed, int runs) {
    std::vector<int32_t> reached;
    for (size_t v = 0; v < c.host.dist.size(); ++v) {
        if (c.host.dist[v] >= 0) reached.push_back(static_cast<int32_t>(v));
    }
    grading::SplitMix64 rng(derive(seed, "timed sources of " + c.name));
    grading::shuffle(reached, rng);
    reached.resize(std::min(reached.size(), static_cast<size_t>(runs)));
    while (!reached.empty() && reached.size() < static_cast<size_t>(runs)) reached.push_back(reached[reached.size() % 2]);
    return reached;
}

namespace {

grading::Reply<protocol::Bfs> searchWith(const std::string& runner, const GraphCase& c, const std::string& mapping,
                                         double limitSeconds, int timedRuns, bool exclusiveGpu,
                                         const std::vector<int32_t>& timedSources, std::optional<int32_t> decoy,
                                         bool shared) {
    protocol::BfsRequest request;
    request.timedSources = timedSources;
    request.rowOffsets = c.graph.rowOffsets;
    request.colIndices = c.graph.colIndices;
    request.source = c.source;
    request.mapping = mapping;
    request.decoySource = decoy;
    request.timedRuns = timedRuns;
    // Shared: an untimed search is the same for distances, levels and
    // frontier_total (one search a runner, graph and seed, read back by the
    // other two); a timed one where the caller asks (38.timing's, read back
    // by the report). Its checks queued, and asked again strictly where it
    // fails, for the level; a hang's breadcrumbs name its level already.
    return grading::askAgainStrictly<protocol::Bfs>(
        [&](bool strict) {
            request.strict = strict ? 1 : 0;
            return grading::call<protocol::Bfs>(
                runner, request,
                {limitSeconds, "bfs --mapping " + mapping + " on " + c.name, exclusiveGpu, shared,
                 kLevelStallSeconds});
        },
        grading::Hangs::NamedAlready);
}

}  // namespace

grading::Reply<protocol::Bfs> search(const std::string& runner, const GraphCase& c, const std::string& mapping,
                                     double limitSeconds, int timedRuns, bool exclusiveGpu,
                                     const std::vector<int32_t>& timedSources, grading::Answer answer) {
    return searchWith(runner, c, mapping, limitSeconds, timedRuns, exclusiveGpu, timedSources, decoyFor(c),
                      timedRuns == 0 || answer == grading::Answer::Shared);
}

grading::Reply<protocol::Bfs> searchAlone(const std::string& runner, const GraphCase& c, const std::string& mapping,
                                          double limitSeconds) {
    return searchWith(runner, c, mapping, limitSeconds, 0, false, {}, std::nullopt, true);
}

grading::Reply<protocol::Expand> expand(const std::string& runner, const GraphCase& c, const Expansion& e,
                                        const std::optional<Expansion>& decoy, const std::string& mapping,
                                        double limitSeconds) {
    protocol::ExpandRequest request;
    request.rowOffsets = c.graph.rowOffsets;
    request.colIndices = c.graph.colIndices;
    request.mapping = mapping;
    request.dist = e.before;
    request.frontier = e.frontier;
    request.level = e.level;
    if (decoy) {
        request.decoyDist = decoy->before;
        request.decoyFrontier = decoy->frontier;
        request.decoyLevel = decoy->level;
    }
    // Untimed, so the same for distances and frontier_total: asked once.
    return grading::call<protocol::Expand>(
        runner, request,
        {limitSeconds, "expand --mapping " + mapping + " on " + c.name, false, true, kLevelStallSeconds});
}

grading::Reply<protocol::Walk> walk(const std::string& runner, const GraphCase& c, const WalkFrontiers& f,
                                    const std::string& mapping, double limitSeconds,
                                    const std::vector<int32_t>& timeFrontiers, int timedRuns, bool exclusiveGpu,
                                    uint64_t key, grading::Answer answer) {
    protocol::WalkRequest request;
    request.rowOffsets = c.graph.rowOffsets;
    request.colIndices = c.graph.colIndices;
    request.mapping = mapping;
    request.repeats = kWalkRepeats;
    request.frontiers = f.frontiers;
    request.frontierStart = f.start;
    request.timeFrontiers = timeFrontiers;
    request.timedRuns = timedRuns;
    request.key = key;
    return grading::call<protocol::Walk>(runner, request,
                                         {limitSeconds, "walk --mapping " + mapping + " on " + c.name, exclusiveGpu,
                                          answer == grading::Answer::Shared, kLevelStallSeconds});
}

grading::Reply<protocol::ClockedWalk> clockedWalk(const std::string& runner, const GraphCase& c, const WalkFrontiers& f,
                                                  const std::string& mapping, int runs, uint64_t key,
                                                  double limitSeconds, bool exclusiveGpu) {
    protocol::ClockedWalkRequest request;
    request.rowOffsets = c.graph.rowOffsets;
    request.colIndices = c.graph.colIndices;
    request.mapping = mapping;
    request.repeats = kWalkRepeats;
    request.frontiers = f.frontiers;
    request.frontierStart = f.start;
    request.runs = runs;
    request.key = key;
    return grading::call<protocol::ClockedWalk>(
        runner, request,
        {limitSeconds, "clocked_walk --mapping " + mapping + " --runs " + std::to_string(runs) + " on " + c.name,
         exclusiveGpu});
}

}  // namespace day38::cases
