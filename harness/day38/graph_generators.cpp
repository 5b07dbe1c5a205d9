#include "graph_generators.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace grading {
namespace {

std::vector<std::string> numberedWords(int n) {
    std::vector<std::string> words(n);
    for (int v = 0; v < n; ++v) words[v] = "v" + std::to_string(v);
    return words;
}

Graph fromEdges(int n, const std::vector<std::pair<int, int>>& edges) {
    return buildCsr(n, numberedWords(n), edges);
}

// The undirected edges seen so far, as (min, max) packed in one word, in an
// open-addressed table: R-MAT at scale 22 draws 67M edges, where a node per
// edge (std::set) costs a minute and gigabytes. Same answers as a set.
class EdgeSet {
public:
    explicit EdgeSet(size_t expected) {
        size_t slots = 16;
        while (slots < 2 * expected) slots *= 2;  // at most half full
        slots_.assign(slots, kEmpty);
    }
    // True when {u, v} was not there yet.
    bool insert(int u, int v) {
        const uint64_t key = (static_cast<uint64_t>(std::min(u, v)) << 32) | static_cast<uint32_t>(std::max(u, v));
        const size_t mask = slots_.size() - 1;
        for (size_t i = splitMix64Finalize(key) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == key) return false;
            if (slots_[i] == kEmpty) {
                slots_[i] = key;
                return true;
            }
        }
    }

private:
    static constexpr uint64_t kEmpty = ~uint64_t{0};  // never a key: ids are below 2^31
    std::vector<uint64_t> slots_;
};

}  // namespace

Graph chainGraph(int vertices) {
    std::vector<std::pair<int, int>> edges;
    for (int v = 0; v + 1 < vertices; ++v) edges.emplace_back(v, v + 1);
    return fromEdges(vertices, edges);
}

Graph starGraph(int leaves) {
    std::vector<std::pair<int, int>> edges;
    for (int v = 1; v <= leaves; ++v) edges.emplace_back(0, v);
    return fromEdges(leaves + 1, edges);
}

Graph gridGraph(int width, int height) {
    std::vector<std::pair<int, int>> edges;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const int v = y * width + x;
            if (x + 1 < width) edges.emplace_back(v, v + 1);
            if (y + 1 < height) edges.emplace_back(v, v + width);
        }
    }
    return fromEdges(width * height, edges);
}

Graph rmatGraph(int scale, int edgeFactor, uint64_t seed) {
    const int n = 1 << scale;
    SplitMix64 rng(seed);
    std::vector<int> label(n);
    std::iota(label.begin(), label.end(), 0);
    for (int i = n - 1; i > 0; --i) std::swap(label[i], label[rng.below(static_cast<uint64_t>(i) + 1)]);

    std::vector<std::pair<int, int>> edges;
    const long long draws = static_cast<long long>(edgeFactor) * n;
    EdgeSet seen(static_cast<size_t>(draws));
    for (long long k = 0; k < draws; ++k) {
        int u = 0;
        int v = 0;
        for (int bit = 0; bit < scale; ++bit) {
            // Quadrant A [0, .57) -> (0, 0), B [.57, .76) -> (0, 1),
            // C [.76, .95) -> (1, 0), D [.95, 1) -> (1, 1).
            const double p = rng.unit();
            const int row = p >= 0.76 ? 1 : 0;
            const int col = (p >= 0.57 && p < 0.76) || p >= 0.95 ? 1 : 0;
            u |= row << bit;
            v |= col << bit;
        }
        u = label[u];
        v = label[v];
        if (u == v) continue;
        if (seen.insert(u, v)) edges.emplace_back(u, v);
    }
    return fromEdges(n, edges);
}

Graph componentsGraph(uint64_t seed) {
    SplitMix64 rng(seed);
    std::vector<std::pair<int, int>> edges;
    int next = 0;
    // Component sizes, largest first so vertex 0 lands in it.
    const int sizes[] = {400, 150, 60, 20, 5, 2};
    for (int c = 0; c < 6; ++c) {
        const int base = next;
        const int size = sizes[c];
        for (int k = 1; k < size; ++k) edges.emplace_back(base + static_cast<int>(rng.below(k)), base + k);
        if (c % 2 == 1 && size > 2) {
            // Close a cycle. When the last vertex already hangs off base, go
            // through base + 1 instead, or the "cycle" is a duplicate edge.
            const int from = edges.back().first == base ? base + 1 : base;
            edges.emplace_back(from, base + size - 1);
        }
        next += size;
    }
    const int isolated = 25;
    return fromEdges(next + isolated, edges);
}

Graph bipartiteGraph(int sideA, int sideB) {
    std::vector<std::pair<int, int>> edges;
    for (int a = 1; a <= sideA; ++a) edges.emplace_back(0, a);
    for (int a = 1; a <= sideA; ++a) {
        for (int b = 0; b < sideB; ++b) edges.emplace_back(a, 1 + sideA + b);
    }
    return fromEdges(1 + sideA + sideB, edges);
}

Graph singleVertexGraph() { return fromEdges(1, {}); }

Graph wideGraph(int wide, int fan) {
    std::vector<std::pair<int, int>> edges;
    edges.reserve(static_cast<size_t>(wide) * (1 + static_cast<size_t>(fan)));
    for (int a = 1; a <= wide; ++a) edges.emplace_back(0, a);
    int leaf = 1 + wide;
    for (int a = 1; a <= wide; ++a) {
        for (int k = 0; k < fan; ++k) edges.emplace_back(a, leaf++);
    }
    return fromEdges(leaf, edges);
}

int highestDegreeVertex(const Graph& g) {
    int best = 0;
    for (int v = 1; v < g.vertexCount; ++v) {
        if (g.degree(v) > g.degree(best)) best = v;
    }
    return best;
}

}  // namespace grading
