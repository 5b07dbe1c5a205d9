#include "graph.h"

#include "bfs_constants.h"

#include <algorithm>
#include <climits>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace grading {
namespace {

// A comment's text without the carriage returns it ends in: a CRLF line has
// lost one already, and more than one is noise no writer could keep (the
// reader drops one per line), so a comment reads back the same after writeGraph.
std::string commentText(const std::string& line) {
    const size_t end = line.find_last_not_of('\r');
    return end == std::string::npos || end == 0 ? std::string() : line.substr(1, end);
}

// Reads the next line that is neither a comment nor blank, counting lines so
// errors can name them. Comment lines are kept: they carry provenance.
class LineReader {
public:
    LineReader(std::istream& in, std::vector<std::string>* comments)
        : in_(in), comments_(comments) {}

    bool next(std::string* line) {
        while (std::getline(in_, *line)) {
            ++number_;
            if (!line->empty() && line->back() == '\r') line->pop_back();
            if (line->empty()) continue;
            if ((*line)[0] == '#') {
                comments_->push_back(commentText(*line));
                continue;
            }
            return true;
        }
        return false;
    }
    int number() const { return number_; }

private:
    std::istream& in_;
    std::vector<std::string>* comments_;
    int number_ = 0;
};

// The bytes left in a seekable stream, or -1: a header's promises are held
// to them before anything is allocated for it.
long long remainingBytes(std::istream& in) {
    if (in.eof()) return 0;  // the header was the last line: tellg() would fail
    const std::streampos here = in.tellg();
    if (here < 0) return -1;
    in.seekg(0, std::ios::end);
    const std::streampos end = in.tellg();
    in.seekg(here);
    return end < 0 ? -1 : static_cast<long long>(end - here);
}

// Instructors' graphs are graded on one GPU in seconds: a file declaring more
// vertices than this (a Matrix Market header can, in a few bytes) is refused.
constexpr long long kMaxVertices = 1ll << 26;
constexpr long long kVerticesPerEntryByte = 64;

// Parses two integers at the start of a line; trailing text is ignored, as
// the course's sscanf("%d %d") does.
bool parsePair(const std::string& line, long long* a, long long* b) {
    std::istringstream s(line);
    return static_cast<bool>(s >> *a >> *b);
}

}  // namespace

Graph buildCsr(int vertexCount, std::vector<std::string> words,
               const std::vector<std::pair<int, int>>& edges) {
    Graph g;
    g.edges = edges;
    g.vertexCount = vertexCount;
    g.edgeCount = static_cast<int>(edges.size());
    g.words = std::move(words);
    g.rowOffsets.assign(vertexCount + 1, 0);
    for (const auto& [u, v] : edges) {
        ++g.rowOffsets[u + 1];
        ++g.rowOffsets[v + 1];
    }
    for (int v = 0; v < vertexCount; ++v) g.rowOffsets[v + 1] += g.rowOffsets[v];
    std::vector<int> cursor(g.rowOffsets.begin(), g.rowOffsets.end() - 1);
    g.colIndices.assign(edges.size() * 2, 0);
    for (const auto& [u, v] : edges) {
        g.colIndices[cursor[u]++] = v;
        g.colIndices[cursor[v]++] = u;
    }
    return g;
}

namespace {

// The loaders' contract is "never an exception": whatever escapes (an
// allocation, say) becomes a message naming the file.
template <class Parse>
Expected<Graph> guarded(const std::string& name, Parse parse) {
    try {
        return parse();
    } catch (const std::exception& e) {
        return Error{name + ": cannot load: " + e.what()};
    }
}

bool printable(const std::string& label) {
    return std::none_of(label.begin(), label.end(), [](char c) {
        const unsigned char u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

Expected<Graph> parseCourse(std::istream& in, const std::string& name) {
    std::vector<std::string> comments;
    LineReader reader(in, &comments);
    std::string line;
    const auto at = [&](int lineNumber) {
        return name + ":" + std::to_string(lineNumber) + ": ";
    };

    // The course requires E > 0; we accept E = 0 so a lone vertex or an
    // edgeless graph can be graded. Everything else matches the course.
    long long vertices = 0;
    long long edgesInFile = 0;
    if (!reader.next(&line)) {
        return Error{name + ": bad header line: the file holds no data"};
    }
    if (!parsePair(line, &vertices, &edgesInFile) || vertices <= 0 ||
        edgesInFile < 0 || vertices > INT_MAX - 1 || edgesInFile > INT_MAX / 2) {
        return Error{at(reader.number()) + "bad header line: want \"V E\" with V > 0 and E >= 0, got \"" + line + "\""};
    }

    // Each label takes at least two bytes ("a\n") and each edge four ("0 1\n").
    const long long left = remainingBytes(in);
    if (left >= 0 && 2 * vertices + 4 * edgesInFile > left) {
        return Error{at(reader.number()) + "bad header line: it promises " + std::to_string(vertices) + " labels and " +
                     std::to_string(edgesInFile) + " edges, at least " + std::to_string(2 * vertices + 4 * edgesInFile) +
                     " bytes, but only " + std::to_string(left) + " bytes follow"};
    }
    if (vertices > kMaxVertices) {
        return Error{at(reader.number()) + "bad header line: " + std::to_string(vertices) + " vertices, more than the " +
                     std::to_string(kMaxVertices) + " graded"};
    }
    std::vector<std::string> words;
    if (left >= 0) words.reserve(static_cast<size_t>(vertices));  // bounded by the bytes, checked above
    for (long long v = 0; v < vertices; ++v) {
        if (!reader.next(&line)) {
            return Error{name + ": ran out of labels at " + std::to_string(v) +
                         " (the header promised " + std::to_string(vertices) + ")"};
        }
        const size_t len = line.find_first_of(" \t");
        const std::string label = line.substr(0, len);
        if (label.empty() || label.size() >= static_cast<size_t>(kMaxWordLen)) {
            return Error{at(reader.number()) + "label " + std::to_string(v) +
                         " is empty or too long (1 to " + std::to_string(kMaxWordLen - 1) +
                         " characters)"};
        }
        if (!printable(label)) {
            // A control character (a stray \r, say) would not read back the same.
            return Error{at(reader.number()) + "label " + std::to_string(v) + " holds a control character"};
        }
        words.push_back(label);
    }

    std::vector<std::pair<int, int>> edges;
    edges.reserve(static_cast<size_t>(edgesInFile));
    for (long long e = 0; e < edgesInFile; ++e) {
        const std::string where = "bad edge at index " + std::to_string(e);
        if (!reader.next(&line)) {
            return Error{name + ": " + where + ": the file ended after " +
                         std::to_string(e) + " of " + std::to_string(edgesInFile) + " edges"};
        }
        long long u = 0;
        long long v = 0;
        if (!parsePair(line, &u, &v)) {
            return Error{at(reader.number()) + where + ": unparsable \"" + line + "\""};
        }
        if (u < 0 || v < 0 || u >= vertices || v >= vertices) {
            return Error{at(reader.number()) + where + ": vertex out of range in \"" + line +
                         "\" (0 to " + std::to_string(vertices - 1) + ")"};
        }
        if (u == v) {
            return Error{at(reader.number()) + where + ": self loop at vertex " + std::to_string(u)};
        }
        edges.emplace_back(static_cast<int>(u), static_cast<int>(v));
    }

    Graph g = buildCsr(static_cast<int>(vertices), std::move(words), edges);
    g.comments = std::move(comments);
    return g;
}

}  // namespace

Expected<Graph> parseGraph(std::istream& in, const std::string& name) {
    return guarded(name, [&] { return parseCourse(in, name); });
}

Expected<Graph> loadGraph(const std::string& path) {
    std::ifstream in(path);
    if (!in) return Error{"cannot open " + path};
    return parseGraph(in, path);
}

namespace {

// Collects undirected edges between arbitrary ids, dropping self loops and
// repeats, and numbers the vertices in order of first appearance.
class EdgeCollector {
public:
    void add(long long u, long long v) {
        if (u == v) return;
        const int a = idOf(u);
        const int b = idOf(v);
        if (seen_.insert({std::min(a, b), std::max(a, b)}).second) edges_.emplace_back(a, b);
    }
    Graph build(std::vector<std::string> comments) const {
        std::vector<std::string> words(labels_.size());
        for (size_t v = 0; v < labels_.size(); ++v) words[v] = "v" + std::to_string(labels_[v]);
        Graph g = buildCsr(static_cast<int>(labels_.size()), std::move(words), edges_);
        g.comments = std::move(comments);
        return g;
    }
    bool empty() const { return labels_.empty(); }

private:
    int idOf(long long original) {
        const auto [it, added] = ids_.emplace(original, static_cast<int>(labels_.size()));
        if (added) labels_.push_back(original);
        return it->second;
    }
    std::map<long long, int> ids_;
    std::vector<long long> labels_;
    std::set<std::pair<int, int>> seen_;
    std::vector<std::pair<int, int>> edges_;
};

bool isBlank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

}  // namespace

Expected<Graph> parseSnapEdgeList(std::istream& in, const std::string& name) {
    return guarded(name, [&]() -> Expected<Graph> {
    EdgeCollector edges;
    std::vector<std::string> comments;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (isBlank(line)) continue;
        if (line[0] == '#') {
            comments.push_back(commentText(line));
            continue;
        }
        long long u = 0;
        long long v = 0;
        if (!parsePair(line, &u, &v) || u < 0 || v < 0) {
            return Error{name + ":" + std::to_string(number) + ": bad edge: want two non-negative ids, got \"" +
                         line + "\""};
        }
        edges.add(u, v);
    }
    if (edges.empty()) return Error{name + ": no edges"};
    return edges.build(std::move(comments));
    });
}

Expected<Graph> parseMatrixMarket(std::istream& in, const std::string& name) {
    return guarded(name, [&]() -> Expected<Graph> {
    std::string line;
    int number = 1;
    if (!std::getline(in, line) || line.rfind("%%MatrixMarket", 0) != 0 ||
        line.find("coordinate") == std::string::npos) {
        return Error{name + ":1: not a Matrix Market coordinate file (want \"%%MatrixMarket matrix coordinate ...\")"};
    }
    std::vector<std::string> comments = {" " + line.substr(2)};
    long long rows = 0;
    long long cols = 0;
    long long entries = -1;
    while (std::getline(in, line)) {
        ++number;
        if (isBlank(line) || line[0] == '%') continue;
        std::istringstream s(line);
        if (!(s >> rows >> cols >> entries) || rows <= 0 || cols <= 0 || entries < 0) {
            return Error{name + ":" + std::to_string(number) + ": bad size line: want \"rows cols entries\", got \"" +
                         line + "\""};
        }
        break;
    }
    if (entries < 0) return Error{name + ": no size line"};
    if (std::max(rows, cols) > kMaxVertices) {
        return Error{name + ":" + std::to_string(number) + ": bad size line: " + std::to_string(rows) + " x " +
                     std::to_string(cols) + " declares more than the " + std::to_string(kMaxVertices) +
                     " vertices graded"};
    }
    // Each entry takes at least four bytes ("1 2\n"); and a matrix whose rows
    // are nearly all empty is a header, not a graph worth a GPU (a few bytes
    // could otherwise ask for gigabytes of isolated vertices).
    if (const long long left = remainingBytes(in); left >= 0) {
        if (entries > left / 4) {
            return Error{name + ":" + std::to_string(number) + ": bad size line: it promises " +
                         std::to_string(entries) + " entries, at least 4 bytes each, but only " + std::to_string(left) +
                         " bytes follow"};
        }
        if (std::max(rows, cols) > kVerticesPerEntryByte * std::max(left, 1ll)) {
            return Error{name + ":" + std::to_string(number) + ": bad size line: " + std::to_string(rows) + " x " +
                         std::to_string(cols) + " from " + std::to_string(left) + " bytes of entries: more than " +
                         std::to_string(kVerticesPerEntryByte) + " vertices per byte, nearly all isolated"};
        }
    }
    // Vertex k is row and column k + 1, so ids keep the file's meaning.
    const int vertices = static_cast<int>(std::max(rows, cols));
    std::set<std::pair<int, int>> seen;
    std::vector<std::pair<int, int>> edges;
    long long read = 0;
    while (read < entries && std::getline(in, line)) {
        ++number;
        if (isBlank(line) || line[0] == '%') continue;
        long long i = 0;
        long long j = 0;
        if (!parsePair(line, &i, &j) || i < 1 || j < 1 || i > rows || j > cols) {
            return Error{name + ":" + std::to_string(number) + ": bad entry " + std::to_string(read) +
                         ": want 1-based \"i j\" within " + std::to_string(rows) + " x " + std::to_string(cols) +
                         ", got \"" + line + "\""};
        }
        const int a = static_cast<int>(std::min(i, j) - 1);
        const int b = static_cast<int>(std::max(i, j) - 1);
        if (a != b && seen.insert({a, b}).second) edges.emplace_back(a, b);
        ++read;
    }
    if (read < entries) {
        return Error{name + ": the file ended after " + std::to_string(read) + " of " + std::to_string(entries) +
                     " entries"};
    }
    std::vector<std::string> words(vertices);
    for (int v = 0; v < vertices; ++v) words[v] = "v" + std::to_string(v + 1);
    Graph g = buildCsr(vertices, std::move(words), edges);
    g.comments = std::move(comments);
    return g;
    });
}

Expected<Graph> loadAnyGraph(const std::string& path) {
    std::ifstream in(path);
    if (!in) return Error{"cannot open " + path};
    std::string first;
    std::getline(in, first);
    in.clear();
    in.seekg(0);
    if (first.rfind("%%MatrixMarket", 0) == 0) return parseMatrixMarket(in, path);
    // The course format's header is followed by a label; a SNAP list only
    // ever holds number pairs.
    std::string line;
    bool sawHeader = false;
    while (std::getline(in, line)) {
        if (isBlank(line) || line[0] == '#') continue;
        if (!sawHeader) {
            sawHeader = true;
            continue;
        }
        long long a = 0;
        long long b = 0;
        const bool pair = parsePair(line, &a, &b);
        in.clear();
        in.seekg(0);
        return pair ? parseSnapEdgeList(in, path) : parseGraph(in, path);
    }
    in.clear();
    in.seekg(0);
    return parseGraph(in, path);
}

void writeGraph(std::ostream& out, const Graph& g) {
    for (const std::string& c : g.comments) out << '#' << c << '\n';
    out << g.vertexCount << ' ' << g.edgeCount << '\n';
    for (const std::string& w : g.words) out << w << '\n';
    for (const auto& [u, v] : g.edges) out << u << ' ' << v << '\n';
}

bool saveGraph(const std::string& path, const Graph& g) {
    std::ofstream out(path);
    writeGraph(out, g);
    return static_cast<bool>(out.flush());
}

int findVertex(const Graph& g, const std::string& word) {
    const auto it = std::find(g.words.begin(), g.words.end(), word);
    return it == g.words.end() ? -1 : static_cast<int>(it - g.words.begin());
}

std::string commentValue(const Graph& g, const std::string& key) {
    const std::string prefix = key + ":";
    for (const std::string& c : g.comments) {
        const size_t start = c.find_first_not_of(' ');
        if (start != std::string::npos && c.compare(start, prefix.size(), prefix) == 0) {
            const size_t value = c.find_first_not_of(' ', start + prefix.size());
            return value == std::string::npos ? std::string() : c.substr(value);
        }
    }
    return {};
}

HostBfs bfsHost(const Graph& g, int source) {
    HostBfs r;
    r.dist.assign(g.vertexCount, -1);
    r.dist[source] = 0;
    r.order.push_back(source);
    r.levelStart.push_back(0);
    size_t head = 0;
    while (head < r.order.size()) {
        const size_t levelEnd = r.order.size();
        r.levelStart.push_back(static_cast<int>(levelEnd));
        for (; head < levelEnd; ++head) {
            const int u = r.order[head];
            for (int e = g.rowOffsets[u]; e < g.rowOffsets[u + 1]; ++e) {
                const int v = g.colIndices[e];
                if (r.dist[v] < 0) {
                    r.dist[v] = r.dist[u] + 1;
                    r.order.push_back(v);
                }
            }
        }
    }
    return r;
}

uint32_t walkChecksum(const Graph& g, int vertex, int repeats) {
    uint32_t acc = 0;
    for (int r = 0; r < repeats; ++r) {
        for (int e = g.rowOffsets[vertex]; e < g.rowOffsets[vertex + 1]; ++e) {
            acc += static_cast<uint32_t>(g.colIndices[e]) ^ static_cast<uint32_t>(r);
        }
    }
    return acc;
}

long long laneSlotsThreadPerVertex(const std::vector<int>& frontierDegrees) {
    long long slots = 0;
    for (size_t warp = 0; warp < frontierDegrees.size(); warp += day38::kWarpSize) {
        const size_t end = std::min(frontierDegrees.size(), warp + day38::kWarpSize);
        const int widest = *std::max_element(frontierDegrees.begin() + warp,
                                             frontierDegrees.begin() + end);
        slots += static_cast<long long>(day38::kWarpSize) * widest;
    }
    return slots;
}

DegreeStats degreeStats(const Graph& g) {
    DegreeStats s;
    s.vertices = g.vertexCount;
    s.edges = g.edgeCount;
    s.csrEntries = static_cast<long long>(g.colIndices.size());
    std::vector<int> degrees(g.vertexCount);
    for (int v = 0; v < g.vertexCount; ++v) {
        degrees[v] = g.degree(v);
        if (degrees[v] == 1) ++s.degreeOne;
        if (degrees[v] > s.maxDegree) {
            s.maxDegree = degrees[v];
            s.hub = v;
        }
    }
    std::sort(degrees.begin(), degrees.end());
    s.median = degrees[degrees.size() / 2];
    return s;
}

std::vector<LevelStats> levelStats(const Graph& g, const HostBfs& bfs) {
    std::vector<LevelStats> levels;
    for (int lv = 0; lv < bfs.levels(); ++lv) {
        LevelStats s;
        s.level = lv;
        std::vector<int> degrees;
        // Read in place: a copy of each frontier cost an allocation per level.
        for (int i = bfs.levelStart[lv]; i < bfs.levelStart[lv + 1]; ++i) {
            const int v = bfs.order[i];
            degrees.push_back(g.degree(v));
            s.edges += g.degree(v);
            if (degrees.size() == 1 || g.degree(v) > s.maxDegree) {
                s.maxDegree = g.degree(v);
                s.busiest = v;
            }
        }
        s.frontier = static_cast<int>(degrees.size());
        s.warps = (s.frontier + day38::kWarpSize - 1) / day38::kWarpSize;
        s.laneSlots = laneSlotsThreadPerVertex(degrees);
        levels.push_back(s);
    }
    return levels;
}

}  // namespace grading
