#include "picture.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace day34 {

std::optional<grading::Picture> draw(const GridPicture& g) {
    using Json = nlohmann::json;
    const size_t cellCount = static_cast<size_t>(g.side) * static_cast<size_t>(std::max(g.side, 0));
    if (g.side < 1 || g.side > kMostDrawnSide || g.got.size() != cellCount || g.want.size() != cellCount) {
        return std::nullopt;
    }
    // A NaN or inf cell has no JSON number: null, which the heat map leaves blank.
    const auto value = [](double v) { return std::isfinite(v) ? Json(v) : Json(); };
    Json cells = Json::array();
    size_t wrongCount = 0;
    for (size_t k = 0; k < cellCount; ++k) {
        const bool wrong = k < g.wrong.size() && g.wrong[k];
        wrongCount += wrong ? 1 : 0;
        cells.push_back({{"row", k / g.side},
                         {"column", k % g.side},
                         {"got", value(g.got[k])},
                         {"want", value(g.want[k])},
                         {"wrong", wrong}});
    }
    const Json at = {{"x", {{"field", "column"}, {"type", "ordinal"}}}, {"y", {{"field", "row"}, {"type", "ordinal"}}}};
    const Json heat = {
        {"color", {{"field", "got"}, {"type", "quantitative"}, {"scale", {{"scheme", "inferno"}}}, {"title", "got"}}}};
    const Json spec = {
        {"width", std::max(160, 24 * g.side)},
        {"height", std::max(160, 24 * g.side)},
        {"data", {{"values", cells}}},
        {"encoding", at},
        {"layer",
         {{{"mark", {{"type", "rect"}, {"tooltip", {{"content", "data"}}}}}, {"encoding", heat}},
          {{"transform", {{{"filter", "datum.wrong"}}}},
           {"mark",
            {{"type", "rect"}, {"fillOpacity", 0}, {"stroke", grading::kWrongColour}, {"strokeWidth", 2.5}}}}}}};
    grading::Picture picture;
    const std::string side = std::to_string(g.side);
    picture.caption = "The " + side + " x " + side + " grid after the steps, as the kernel left it" +
                      (wrongCount == 0 ? "" : "; outlined in red: the " + std::to_string(wrongCount) +
                                                  " cells that differ from the reference") + ".";
    picture.spec = spec.dump();
    return picture;
}

}  // namespace day34
