#include "shrink.h"

#include <algorithm>
#include <set>

#include "gates.h"
#include "harness/text.h"
#include "heat_constants.h"

namespace day34::shrink {

namespace {

cases::GridSpec resized(const cases::GridSpec& from, int n) {
    cases::GridSpec g = from;
    g.n = n;
    const size_t cut = g.name.rfind('_');
    g.name = (cut == std::string::npos ? g.name : g.name.substr(0, cut)) + "_" + std::to_string(n);
    return g;
}

}  // namespace

std::vector<cases::GridSpec> candidates(const cases::GridSpec& from) {
    if (from.kind == cases::GridKind::File) return {};
    const int m = from.n - 2;
    const bool partialY = m % kTileY != 0;
    std::set<int> sides;
    for (int n = 3; n <= 12 && n < from.n; ++n) {
        if (((n - 2) % kTileY != 0) == partialY) sides.insert(n);
    }
    // The interior's whole tiles halved, its remainders by the tile sides kept.
    for (int tilesX = (m / kTileX) / 2; tilesX > 0; tilesX /= 2) {
        const int interior = tilesX * kTileX + m % kTileX;
        if (interior + 2 < from.n) sides.insert(interior + 2);
    }
    std::vector<cases::GridSpec> out;
    for (int n : sides) out.push_back(resized(from, n));
    return out;
}

std::vector<bool> wrongCells(const std::vector<float>& got, const std::vector<double>& want) {
    std::vector<bool> wrong(got.size(), false);
    for (size_t i = 0; i < got.size() && i < want.size(); ++i) wrong[i] = !cellMatches(got[i], want[i]);
    return wrong;
}

std::string gridText(int n, const std::vector<float>& cells, const std::vector<bool>& wrong) {
    if (n > 16) return "(a " + std::to_string(n) + " x " + std::to_string(n) + " grid)";
    std::string s;
    for (int row = 0; row < n; ++row) {
        s += row ? " / " : "";
        for (int col = 0; col < n; ++col) {
            const size_t i = static_cast<size_t>(row) * n + col;
            s += (col ? " " : "") + grading::formatText("%.4g", cells[i]) + (i < wrong.size() && wrong[i] ? "*" : "");
        }
    }
    return s;
}

}  // namespace day34::shrink
