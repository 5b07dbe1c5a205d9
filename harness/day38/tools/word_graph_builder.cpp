#include "word_graph_builder.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "graph.h"
#include "harness/sha256.h"

namespace grading {
namespace {

// The text of every // and /* */ comment in C source, one entry per comment.
// String and character literals are skipped so a "//" inside one is not taken
// for a comment; an unterminated literal ends at its line.
std::vector<std::string> commentTexts(const std::string& src) {
    std::vector<std::string> comments;
    const size_t n = src.size();
    size_t i = 0;
    while (i < n) {
        const char c = src[i];
        const char next = i + 1 < n ? src[i + 1] : '\0';
        if (c == '/' && next == '/') {
            size_t end = i + 2;
            // A backslash-newline continues a line comment (translation phase 2).
            while (end < n && !(src[end] == '\n' && src[end - 1] != '\\')) ++end;
            comments.push_back(src.substr(i + 2, end - i - 2));
            i = end;
        } else if (c == '/' && next == '*') {
            const size_t end = std::min(src.find("*/", i + 2), n);
            comments.push_back(src.substr(i + 2, end - i - 2));
            i = end + 2;
        } else if (c == '"' || c == '\'') {
            size_t end = i + 1;
            while (end < n && src[end] != c && src[end] != '\n') end += src[end] == '\\' ? 2 : 1;
            i = end + 1;
        } else {
            ++i;
        }
    }
    return comments;
}

// istream::read turns a failed read (a directory, say) into badbit, where
// an istreambuf_iterator would let libstdc++ throw.
bool readFile(const std::string& path, std::string* bytes) {
    std::ifstream in(path, std::ios::binary);
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) bytes->append(chunk, in.gcount());
    return in.is_open() && !in.bad();
}

bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    for (size_t i = 0; i < text.size();) {
        if (!isAsciiLetter(text[i])) {
            ++i;
            continue;
        }
        std::string w;
        for (; i < text.size() && isAsciiLetter(text[i]); ++i) {
            w.push_back(static_cast<char>(text[i] | 0x20));  // ASCII lower case
        }
        out.push_back(std::move(w));
    }
    return out;
}

// "13.0" from "#define CUDA_VERSION 13000", or "" if no input defines it.
std::string toolkitVersion(const std::vector<std::string>& sources) {
    for (const std::string& src : sources) {
        for (size_t at = src.find("define"); at != std::string::npos; at = src.find("define", at + 6)) {
            std::istringstream line(src.substr(at + 6, src.find('\n', at) - at - 6));
            std::string name;
            long v = 0;
            const size_t hash = src.rfind('#', at);
            const bool directive = hash != std::string::npos &&
                                   src.find_first_not_of(" \t", hash + 1) == at;
            if (directive && line >> name >> v && name == "CUDA_VERSION") {
                return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
            }
        }
    }
    return {};
}

}  // namespace

Expected<std::string> buildWordGraphText(const WordGraphInput& input) {
    std::vector<std::string> sources;
    std::vector<std::string> provenance = {" generator: harness/day38/tools/make_word_graph", ""};
    for (const std::string& header : input.headers) {
        const std::string path = input.includeDir + "/" + header;
        std::string bytes;
        if (!readFile(path, &bytes)) return Error{"cannot read header " + path};
        provenance.push_back(" input: " + header + " sha256 " + sha256Hex(bytes));
        sources.push_back(std::move(bytes));
    }
    const std::string version = toolkitVersion(sources);
    provenance[1] = " toolkit: " + (version.empty() ? std::string("unknown") : "CUDA " + version);

    // Ordered by (word, word), so once ids follow word order the edges come
    // out already sorted by (u, v).
    std::map<std::pair<std::string, std::string>, int> pairCounts;
    for (const std::string& src : sources) {
        for (const std::string& comment : commentTexts(src)) {
            const std::vector<std::string> ws = words(comment);
            for (size_t k = 1; k < ws.size(); ++k) {
                const std::string& a = ws[k - 1];
                const std::string& b = ws[k];
                // Long words count as tokens (their neighbours stay apart)
                // but cannot be labels in the course format.
                if (a == b || a.size() >= size_t(kMaxWordLen) || b.size() >= size_t(kMaxWordLen)) {
                    continue;
                }
                ++pairCounts[std::minmax(a, b)];
            }
        }
    }

    std::vector<std::string> labels;
    for (const auto& [pair, count] : pairCounts) {
        if (count < input.minCount) continue;
        labels.push_back(pair.first);
        labels.push_back(pair.second);
    }
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    if (labels.empty()) {
        return Error{"no pair of comment words is adjacent " + std::to_string(input.minCount) +
                     " or more times in " + input.includeDir};
    }
    const auto id = [&](const std::string& w) {
        return static_cast<int>(std::lower_bound(labels.begin(), labels.end(), w) - labels.begin());
    };
    std::vector<std::pair<int, int>> edges;
    for (const auto& [pair, count] : pairCounts) {
        if (count >= input.minCount) edges.emplace_back(id(pair.first), id(pair.second));
    }

    const int vertexCount = static_cast<int>(labels.size());
    Graph g = buildCsr(vertexCount, std::move(labels), edges);

    // The source with the deepest BFS; scanning ids in word order and keeping
    // only strict improvements breaks ties toward the smaller word.
    int source = 0;
    int sourceLevels = 0;
    for (int v = 0; v < vertexCount; ++v) {
        const int levels = bfsHost(g, v).levels();
        if (levels > sourceLevels) {
            source = v;
            sourceLevels = levels;
        }
    }
    const DegreeStats stats = degreeStats(g);

    g.comments = std::move(provenance);
    g.comments.push_back(
        " rule: comment text (// and /* */) of the inputs split into maximal [A-Za-z] runs, "
        "lower-cased; two distinct words under " + std::to_string(kMaxWordLen) +
        " letters are joined when consecutive within one comment " + std::to_string(input.minCount) +
        "+ times in total; vertices are the joined words in lexicographic order; edges sorted by (u, v), u < v");
    g.comments.push_back(" default source: " + g.word(source));
    g.comments.push_back(" default source levels: " + std::to_string(sourceLevels));
    g.comments.push_back(" vertices: " + std::to_string(stats.vertices));
    g.comments.push_back(" edges: " + std::to_string(stats.edges));
    g.comments.push_back(" hub: " + g.word(stats.hub) + " " + std::to_string(stats.maxDegree));
    g.comments.push_back(" median degree: " + std::to_string(stats.median));

    std::ostringstream out;
    writeGraph(out, g);
    return out.str();
}

}  // namespace grading
