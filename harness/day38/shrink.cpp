#include "shrink.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <set>
#include <sstream>

namespace day38::shrink {

namespace {

// Chunks of n items, `parts` of them (the last ones a little shorter): the
// ith as a mask over the items.
std::vector<bool> chunkMask(size_t n, size_t parts, size_t i) {
    std::vector<bool> mask(n, false);
    const size_t from = n * i / parts;
    const size_t to = n * (i + 1) / parts;
    for (size_t k = from; k < to; ++k) mask[k] = true;
    return mask;
}

// Marks the edges not wholly within `radius` of the source (-1: not wholly reached).
std::vector<bool> edgesBeyond(const Input& in, const std::vector<int>& dist, int radius) {
    std::vector<bool> drop(in.edges.size());
    for (size_t k = 0; k < in.edges.size(); ++k) {
        const int a = dist[in.edges[k].first];
        const int b = dist[in.edges[k].second];
        drop[k] = a < 0 || b < 0 || (radius >= 0 && (a > radius || b > radius));
    }
    return drop;
}

// Marks the edges that touch no pinned vertex but those `dropPinned` marks.
std::vector<bool> edgesAwayFrom(const Input& in, const std::vector<bool>& dropPinned) {
    std::vector<bool> kept(in.vertexCount, false);
    for (size_t k = 0; k < in.pinned.size(); ++k) {
        if (k >= dropPinned.size() || !dropPinned[k]) kept[in.pinned[k]] = true;
    }
    std::vector<bool> away(in.edges.size());
    for (size_t k = 0; k < in.edges.size(); ++k) away[k] = !kept[in.edges[k].first] && !kept[in.edges[k].second];
    return away;
}

// A search's BFS tree from its source: each vertex's distance and parent
// (its first neighbour a level nearer; -1 for the source and the
// unreached), and the reached in BFS order, parents before children.
struct SearchTree {
    std::vector<int> dist;
    std::vector<int> parent;
    std::vector<int> order;
};

SearchTree searchTree(const Input& in) {
    const grading::Graph g = graphOf(in);
    grading::HostBfs bfs = grading::bfsHost(g, in.pinned.front());
    SearchTree t{std::move(bfs.dist), std::vector<int>(in.vertexCount, -1), std::move(bfs.order)};
    for (int v : t.order) {
        for (int e = g.rowOffsets[v]; e < g.rowOffsets[v + 1] && t.parent[v] < 0 && t.dist[v] > 0; ++e) {
            if (t.dist[g.colIndices[e]] == t.dist[v] - 1) t.parent[v] = g.colIndices[e];
        }
    }
    return t;
}

// Marks the edges that touch a vertex `gone` marks, or one below it in the
// tree: the rest keep their distances, each still reached along its own
// tree path.
std::vector<bool> edgesBelow(const Input& in, const SearchTree& t, std::vector<bool> gone) {
    for (int v : t.order) {
        if (t.parent[v] >= 0 && gone[t.parent[v]]) gone[v] = true;
    }
    std::vector<bool> drop(in.edges.size());
    for (size_t k = 0; k < in.edges.size(); ++k) drop[k] = gone[in.edges[k].first] || gone[in.edges[k].second];
    return drop;
}

// A search's tail: the edges among the vertices numbered above every vertex
// it reaches (none when the last row is reached). They end the column
// array, so a read past a reached vertex's row lands in them.
struct Tail {
    std::vector<bool> edges;       // marked: the tail's
    std::vector<size_t> fromEnd;   // the tail's edges, the last row's first
    std::vector<bool> vertices;    // marked: named by them
    int vertexCount() const { return static_cast<int>(std::count(vertices.begin(), vertices.end(), true)); }
};

Tail tailOf(const Input& in, const std::vector<int>& dist) {
    int lastReached = 0;
    for (int v = 0; v < in.vertexCount; ++v) {
        if (dist[v] >= 0) lastReached = v;
    }
    Tail t;
    t.edges.resize(in.edges.size());
    t.vertices.resize(in.vertexCount);
    for (size_t k = 0; k < in.edges.size(); ++k) {
        const auto [a, b] = in.edges[k];
        if (std::min(a, b) <= lastReached) continue;
        t.edges[k] = true;
        t.fromEnd.push_back(k);
        t.vertices[a] = t.vertices[b] = true;
    }
    const auto top = [&in](size_t k) { return std::max(in.edges[k].first, in.edges[k].second); };
    std::stable_sort(t.fromEnd.begin(), t.fromEnd.end(), [&top](size_t a, size_t b) { return top(a) > top(b); });
    return t;
}

// `chunk`, a mask over the edges `tail` does not mark, as a mask over every edge.
std::vector<bool> spread(const std::vector<bool>& chunk, const std::vector<bool>& tail) {
    if (tail.empty()) return chunk;
    std::vector<bool> out(tail.size(), false);
    for (size_t k = 0, c = 0; k < tail.size(); ++k) {
        if (!tail[k]) out[k] = chunk[c++];
    }
    return out;
}

// The partitions delta debugging tries for n items: halves, quarters, ...
// and, once few are left, each item alone. A large input gets `coarsest`
// parts at most: each candidate tried is a copy of it.
std::vector<size_t> partitionsOf(size_t n, size_t coarsest) {
    const size_t finest = n <= 64 ? n : std::min(n, coarsest);
    std::vector<size_t> partitions;
    for (size_t parts = 2; parts < finest; parts *= 2) partitions.push_back(parts);
    if (finest >= 2) partitions.push_back(finest);
    return partitions;
}

// Graphs of at most this many vertices also try each edge contracted.
constexpr int kContractBelow = 32;

// `in` with the edge a-b contracted: a's edges go to b (b's to a where a is
// the source, which stays), the loop and repeated edges that makes dropped.
Input contracted(const Input& in, int a, int b) {
    if (a == in.pinned.front()) std::swap(a, b);
    Input merged = in;
    merged.edges.clear();
    std::set<std::pair<int, int>> seen;
    for (auto [u, v] : in.edges) {
        if (u == a) u = b;
        if (v == a) v = b;
        if (u != v && seen.insert({std::min(u, v), std::max(u, v)}).second) merged.edges.emplace_back(u, v);
    }
    return keep(merged, {}, {});
}

}  // namespace

Input searchInput(const grading::Graph& g, int source) {
    Input in;
    in.question = Question::Search;
    in.vertexCount = g.vertexCount;
    in.words = g.words;
    in.edges = g.edges;
    in.pinned = {source};
    return in;
}

Input expansionInput(const grading::Graph& g, const Expansion& e) {
    Input in = searchInput(g, 0);
    in.question = Question::Expansion;
    in.pinned = e.frontier;
    in.before = e.before;
    in.level = e.level;
    return in;
}

Input walkInput(const grading::Graph& g, const std::vector<int>& frontier) {
    Input in = searchInput(g, 0);
    in.question = Question::Walk;
    in.pinned = frontier;
    return in;
}

grading::Graph graphOf(const Input& in) { return grading::buildCsr(in.vertexCount, in.words, in.edges); }

Expansion expansionOf(const Input& in) {
    Expansion e;
    e.before = in.before;
    e.frontier = in.pinned;
    e.level = in.level;
    return e;
}

Input keep(const Input& in, const std::vector<bool>& dropEdge, const std::vector<bool>& dropPinned) {
    std::vector<bool> used(in.vertexCount, false);
    Input out;
    out.question = in.question;
    out.level = in.level;
    for (size_t k = 0; k < in.pinned.size(); ++k) {
        if (k < dropPinned.size() && dropPinned[k]) continue;
        used[in.pinned[k]] = true;
        out.pinned.push_back(in.pinned[k]);
    }
    for (size_t k = 0; k < in.edges.size(); ++k) {
        if (k < dropEdge.size() && dropEdge[k]) continue;
        used[in.edges[k].first] = used[in.edges[k].second] = true;
        out.edges.push_back(in.edges[k]);
    }
    std::vector<int> renamed(in.vertexCount, -1);
    for (int v = 0; v < in.vertexCount; ++v) {
        if (!used[v]) continue;
        renamed[v] = out.vertexCount++;
        out.words.push_back(in.words[v]);
        if (!in.before.empty()) out.before.push_back(in.before[v]);
    }
    for (int& v : out.pinned) v = renamed[v];
    for (auto& [a, b] : out.edges) {
        a = renamed[a];
        b = renamed[b];
    }
    return out;
}

std::vector<grading::MakeCandidate<Input>> candidates(const Input& from) {
    // Every candidate is a copy, made only when the search comes to it: a
    // graded graph has millions of edges, and most searches stop early.
    std::vector<grading::MakeCandidate<Input>> out;
    const auto base = std::make_shared<const Input>(from);
    const auto without = [&out, base](std::function<std::vector<bool>(const Input&)> edges, std::vector<bool> pinned) {
        out.push_back([base, edges = std::move(edges), pinned = std::move(pinned)] {
            return keep(*base, edges ? edges(*base) : std::vector<bool>{}, pinned);
        });
    };
    // A search keeps its tail (tailOf) while it shrinks the rest: a mapping
    // that reads past a reached vertex's row then reads the tail, as it did
    // on the graded graph, and fails the same way, instead of faulting past
    // the array's end (each fault restarts the runner). Chunks are of the
    // other edges and vertices; the tail's own come last, once the rest is small.
    const bool search = from.question == Question::Search;
    const auto tree = search ? std::make_shared<const SearchTree>(searchTree(from)) : nullptr;
    const auto tail = std::make_shared<const Tail>(search ? tailOf(from, tree->dist) : Tail{});
    const auto sparingTail = [tail](std::vector<bool> drop) {
        for (size_t k : tail->fromEnd) drop[k] = false;
        return drop;
    };
    if (search) {
        // The balls around the source (radius 1, 2, 4, ...), then its
        // component, then the search's tree without subtrees: the other
        // vertices in id order by halves, quarters, ..., each chunk dropped
        // with everything below it, so the rest keep their levels and ids'
        // order (what a bug keyed to either needs).
        const int far = *std::max_element(tree->dist.begin(), tree->dist.end());
        for (int radius = 1; radius < far; radius *= 2) {
            without([tree, radius, sparingTail](const Input& in) {
                return sparingTail(edgesBeyond(in, tree->dist, radius));
            }, {});
        }
        const std::vector<bool> unreached = sparingTail(edgesBeyond(from, tree->dist, -1));
        if (std::find(unreached.begin(), unreached.end(), true) != unreached.end()) {
            without([unreached](const Input&) { return unreached; }, {});
        }
        std::vector<bool> spared = tail->vertices;  // and the source
        spared[from.pinned.front()] = true;
        auto others = std::make_shared<std::vector<int>>();  // the vertices a chunk may drop
        for (int v = 0; v < from.vertexCount; ++v) {
            if (!spared[v]) others->push_back(v);
        }
        for (size_t parts : partitionsOf(others->size(), others->size() <= 4096 ? 32 : 8)) {
            for (size_t i = 0; i < parts; ++i) {
                without(
                    [tree, others, parts, i, sparingTail](const Input& in) {
                        const std::vector<bool> chunk = chunkMask(others->size(), parts, i);
                        std::vector<bool> dropVertex(in.vertexCount, false);
                        for (size_t k = 0; k < others->size(); ++k) dropVertex[(*others)[k]] = chunk[k];
                        return sparingTail(edgesBelow(in, *tree, std::move(dropVertex)));
                    },
                    {});
            }
        }
    }
    // The frontier: first the graph cut to its own edges (one level reads
    // no other row), where that leaves something out (a candidate equal to
    // its input would succeed forever); then each sixteenth, eighth, ...,
    // half of it alone with its own edges, the finest first, as a fault
    // restarts the runner and each success here is often one (a failure
    // is local to a few slots); then without each half, quarter, ...
    if (from.question != Question::Search) {
        const auto away = std::make_shared<const std::vector<bool>>(edgesAwayFrom(from, {}));
        if (std::find(away->begin(), away->end(), true) != away->end()) {
            without([away](const Input&) { return *away; }, {});
        }
        const size_t pinned = from.pinned.size();
        std::vector<size_t> partitions;
        for (size_t parts = 2; parts <= std::min<size_t>(pinned, 16); parts *= 2) partitions.push_back(parts);
        for (auto parts = partitions.rbegin(); parts != partitions.rend(); ++parts) {
            for (size_t i = 0; i < *parts; ++i) {
                std::vector<bool> others = chunkMask(pinned, *parts, i);
                others.flip();
                without([others](const Input& in) { return edgesAwayFrom(in, others); }, others);
            }
        }
        for (size_t parts : partitions) {
            for (size_t i = 0; i < parts; ++i) without(nullptr, chunkMask(pinned, parts, i));
        }
    }
    // Delta debugging over the edges but the tail's: without each half,
    // quarter, ... and, once few are left, without each edge alone.
    const size_t edges = from.edges.size() - tail->fromEnd.size();
    const auto edgeChunk = [tail, edges](size_t parts, size_t i) {
        return [tail, edges, parts, i](const Input&) { return spread(chunkMask(edges, parts, i), tail->edges); };
    };
    for (size_t parts : partitionsOf(edges, edges <= 4096 ? 32 : 8)) {
        for (size_t i = 0; i < parts; ++i) without(edgeChunk(parts, i), {});
    }
    if (edges == 1) without(edgeChunk(1, 0), {});
    // Once small, each edge contracted: a path one shorter, where no edge
    // or vertex can go without losing the failure. Then the tail: all but
    // its last 1, 2, 4, ... edges (the array keeps its end, which the tail
    // is there for), then without each half, quarter, ... and each edge alone.
    if (search && from.vertexCount - tail->vertexCount() <= kContractBelow) {
        for (size_t k = 0; k < from.edges.size(); ++k) {
            if (tail->edges[k]) continue;
            out.push_back([base, a = from.edges[k].first, b = from.edges[k].second] { return contracted(*base, a, b); });
        }
        const size_t n = tail->fromEnd.size();
        const auto withoutTail = [&](size_t first, size_t last) {  // the tail's edges [first, last) from its end
            std::vector<bool> drop(from.edges.size(), false);
            for (size_t k = first; k < last; ++k) drop[tail->fromEnd[k]] = true;
            without([drop](const Input&) { return drop; }, {});
        };
        for (size_t keptAtEnd = 1; keptAtEnd < n; keptAtEnd *= 2) withoutTail(keptAtEnd, n);
        for (size_t parts : partitionsOf(n, 32)) {
            for (size_t i = 0; i < parts; ++i) withoutTail(n * i / parts, n * (i + 1) / parts);
        }
        if (n == 1) withoutTail(0, 1);
    }
    // First, the vertices no edge or question names (a frontier's isolated
    // ones stay pinned).
    std::vector<bool> named(from.vertexCount, false);
    for (int v : from.pinned) named[v] = true;
    for (const auto& [a, b] : from.edges) named[a] = named[b] = true;
    if (std::count(named.begin(), named.end(), false) > 0) {
        out.insert(out.begin(), [base] { return keep(*base, {}, {}); });
    }
    return out;
}

std::string describe(const Input& in) {
    std::string s = std::to_string(in.vertexCount) + " vertices, " + std::to_string(in.edges.size()) + " edges";
    const auto named = [&](int v) { return std::to_string(v) + " (" + in.words[v] + ")"; };
    if (in.question == Question::Search) return s + ", source " + named(in.pinned.front());
    std::string frontier;
    for (size_t k = 0; k < in.pinned.size() && k < 32; ++k) frontier += (k ? " " : "") + std::to_string(in.pinned[k]);
    if (in.pinned.size() > 32) frontier += " ...";
    s += ", frontier [" + frontier + "]";
    if (in.question == Question::Expansion) s += " at level " + std::to_string(in.level);
    return s;
}

std::string edgesText(const Input& in) {
    std::string s;
    const size_t shown = std::min<size_t>(in.edges.size(), 64);
    for (size_t k = 0; k < shown; ++k) {
        s += (k ? " " : "") + std::to_string(in.edges[k].first) + "-" + std::to_string(in.edges[k].second);
    }
    if (shown < in.edges.size()) s += " (and " + std::to_string(in.edges.size() - shown) + " more)";
    return s.empty() ? "none" : s;
}

std::string fileText(const Input& in) {
    grading::Graph g = graphOf(in);
    g.comments.push_back(" day 38 counterexample: " + describe(in));
    if (in.question == Question::Search) {
        g.comments.push_back(" default source: " + in.words[in.pinned.front()]);
    } else {
        std::string frontier;
        for (int v : in.pinned) frontier += (frontier.empty() ? "" : " ") + in.words[v];
        g.comments.push_back(" frontier: " + frontier);
    }
    std::ostringstream out;
    grading::writeGraph(out, g);
    return out.str();
}

}  // namespace day38::shrink
