#include "picture.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace day38 {
namespace {

using Json = nlohmann::json;

// Each vertex's column: its wanted distance, else its distance from the
// marked vertices; the unreached after the deepest, each of their
// components by a search from its first vertex, so that its edges run
// between columns too.
std::vector<int> columnsOf(const GraphPicture& g, int* firstUnreached, bool* anyUnreached) {
    const int n = static_cast<int>(g.labels.size());
    std::vector<std::vector<int>> adjacent(n);
    for (const auto& [a, b] : g.edges) {
        adjacent[a].push_back(b);
        adjacent[b].push_back(a);
    }
    const auto search = [&](std::vector<int>& distance, std::vector<int> queue, int first) {
        for (int v : queue) distance[v] = first;
        for (size_t k = 0; k < queue.size(); ++k) {
            for (int w : adjacent[queue[k]]) {
                if (distance[w] < 0) distance[w] = distance[queue[k]] + 1, queue.push_back(w);
            }
        }
    };
    std::vector<int> column = g.want;
    if (column.empty()) {
        column.assign(n, -1);
        std::vector<int> sources;
        std::copy_if(g.marked.begin(), g.marked.end(), std::back_inserter(sources),
                     [n](int v) { return v >= 0 && v < n; });
        search(column, sources, 0);
    }
    *anyUnreached = std::count(column.begin(), column.end(), -1) > 0;
    *firstUnreached = std::max(0, *std::max_element(column.begin(), column.end())) + 1;
    for (int v = 0; v < n; ++v) {
        if (column[v] < 0) search(column, {v}, *firstUnreached);  // walks the unreached only
    }
    return column;
}

}  // namespace

std::optional<grading::Picture> draw(const GraphPicture& g) {
    const int n = static_cast<int>(g.labels.size());
    if (n == 0 || n > kMostDrawnVertices || g.edges.size() > kMostDrawnEdges) return std::nullopt;
    const bool withDistances = static_cast<int>(g.want.size()) == n;
    const bool withGot = withDistances && g.got.size() == g.want.size();
    int firstUnreached = 0;
    bool anyUnreached = false;
    GraphPicture shown = g;
    if (!withDistances) shown.want.clear();
    const std::vector<int> column = columnsOf(shown, &firstUnreached, &anyUnreached);
    const int columns = *std::max_element(column.begin(), column.end()) + 1;
    std::vector<int> inColumn(columns, 0);
    std::vector<double> x(n), y(n);
    for (int v = 0; v < n; ++v) {
        x[v] = column[v];
        y[v] = inColumn[column[v]]++;
    }
    const int tallest = *std::max_element(inColumn.begin(), inColumn.end());
    for (int v = 0; v < n; ++v) y[v] -= (inColumn[column[v]] - 1) / 2.0;  // each column centred
    const std::string markedAs = g.markedAs.empty() ? "marked" : g.markedAs;
    Json nodes = Json::array();
    for (int v = 0; v < n; ++v) {
        const bool isWrong = std::find(g.wrong.begin(), g.wrong.end(), v) != g.wrong.end();
        const bool isMarked = std::find(g.marked.begin(), g.marked.end(), v) != g.marked.end();
        std::string text = std::to_string(v);
        if (withDistances) text += " " + std::to_string(g.want[v]) + (withGot ? "/" + std::to_string(g.got[v]) : "");
        nodes.push_back({{"x", x[v]}, {"y", y[v]}, {"vertex", v}, {"label", g.labels[v]}, {"text", text},
                         {"status", isWrong ? "wrong" : isMarked ? markedAs : "right"},
                         {"want", withDistances ? Json(g.want[v]) : Json()},
                         {"got", withGot ? Json(g.got[v]) : Json()}});
    }
    // An edge within a column bends out to its right, not through the vertices between.
    Json segments = Json::array();
    for (const auto& [a, b] : g.edges) {
        if (a == b || a < 0 || b < 0 || a >= n || b >= n) continue;
        if (x[a] != x[b]) {
            segments.push_back({{"x", x[a]}, {"y", y[a]}, {"x2", x[b]}, {"y2", y[b]}});
            continue;
        }
        const double bendX = x[a] + 0.3, bendY = (y[a] + y[b]) / 2;
        segments.push_back({{"x", x[a]}, {"y", y[a]}, {"x2", bendX}, {"y2", bendY}});
        segments.push_back({{"x", bendX}, {"y", bendY}, {"x2", x[b]}, {"y2", y[b]}});
    }
    // From the nearest column: an expansion's frontier sits at its level.
    const int nearest = *std::min_element(column.begin(), column.end());
    const Json xScale = {{"domain", {nearest - 0.5, columns - 0.5}}};
    const Json yScale = {{"domain", {-tallest / 2.0 - 0.5, tallest / 2.0 + 0.5}}};
    Json xAxis = {{"title", withDistances ? "distance wanted from the source" : "distance from the " + markedAs},
                  {"tickMinStep", 1}};
    if (anyUnreached) {
        const std::string u = std::to_string(firstUnreached);
        xAxis["labelExpr"] = "datum.value >= " + u + " ? (datum.value == " + u + " ? 'unreached' : '') : datum.value";
    }
    const Json at = {{"x", {{"field", "x"}, {"type", "quantitative"}, {"scale", xScale}, {"axis", xAxis}}},
                     {"y", {{"field", "y"}, {"type", "quantitative"}, {"scale", yScale}, {"axis", nullptr}}}};
    Json edgeEncoding = at;
    edgeEncoding["x2"] = {{"field", "x2"}};
    edgeEncoding["y2"] = {{"field", "y2"}};
    Json nodeEncoding = at;
    nodeEncoding["color"] = {
        {"field", "status"},
        {"type", "nominal"},
        {"scale", {{"domain", {"right", "wrong", markedAs}}, {"range", {"#c6dbef", grading::kWrongColour, "#74c476"}}}},
        {"legend", {{"title", nullptr}, {"orient", "bottom"}}}};
    nodeEncoding["tooltip"] = Json::array({{{"field", "vertex"}}, {{"field", "label"}}, {{"field", "want"}}, {{"field", "got"}}});
    Json textEncoding = at;
    textEncoding["text"] = {{"field", "text"}};
    const Json spec = {
        {"width", std::max(200, 110 * (columns - nearest))},
        {"height", std::max(120, 46 * tallest)},
        {"layer",
         {{{"data", {{"values", segments}}}, {"mark", {{"type", "rule"}, {"color", "#999"}}}, {"encoding", edgeEncoding}},
          {{"data", {{"values", nodes}}},
           {"mark", {{"type", "circle"}, {"size", 420}, {"opacity", 1}, {"stroke", "#444"}}},
           {"encoding", nodeEncoding}},
          {{"data", {{"values", nodes}}}, {"mark", {{"type", "text"}, {"dy", -17}}}, {"encoding", textEncoding}}}}};
    grading::Picture picture;
    picture.caption = "Each vertex shows its number" +
                      std::string(!withDistances ? ""
                                  : !withGot     ? " and its wanted distance (no distances came back: the message says why)"
                                                 : " and its distance wanted/got") +
                      (g.wrong.empty() ? "" : "; red: wrong (" + std::to_string(g.wrong.size()) + ")") + "; green: the " +
                      markedAs + ".";
    picture.spec = spec.dump(-1, ' ', false, Json::error_handler_t::replace);
    return picture;
}

}  // namespace day38
