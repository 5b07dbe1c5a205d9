#include "grid_file.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cases.h"
#include "harness/text.h"

namespace day34::grids {

grading::Expected<GridFile> parseGridFile(const std::string& text, const std::string& source) {
    std::istringstream in(text);
    std::string line;
    int number = 0;
    const auto bad = [&](const std::string& what) { return grading::Error{source + ":" + std::to_string(number) + ": " + what}; };
    GridFile g;
    int rows = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        std::string word;
        if (g.n == 0) {
            char* end = nullptr;
            errno = 0;
            const long n = std::strtol(line.c_str(), &end, 10);
            if (end == line.c_str() || *end != '\0' || errno != 0 || n < 3 || n > cases::kLargestSide) {
                return bad("the grid's side must be a number from 3 to " + std::to_string(cases::kLargestSide) +
                           ", got \"" + line.substr(0, 40) + "\"");
            }
            g.n = static_cast<int>(n);
            g.cells.reserve(static_cast<size_t>(g.n) * g.n);
            continue;
        }
        if (rows == g.n) return bad("more than the " + std::to_string(g.n) + " rows the side says");
        int cells = 0;
        while (words >> word) {
            char* end = nullptr;
            const float v = std::strtof(word.c_str(), &end);
            if (end == word.c_str() || *end != '\0' || !std::isfinite(v)) {
                return bad("cell " + std::to_string(cells) + " of row " + std::to_string(rows) + " is not a finite number: \"" +
                           word.substr(0, 40) + "\"");
            }
            if (++cells > g.n) break;
            g.cells.push_back(v);
        }
        if (cells != g.n) {
            return bad("row " + std::to_string(rows) + " has " +
                       (cells > g.n ? "more than " + std::to_string(g.n) : std::to_string(cells)) + " cells, want " +
                       std::to_string(g.n));
        }
        ++rows;
    }
    if (g.n == 0) return grading::Error{source + ": no grid: the side and its rows are missing"};
    if (rows < g.n) {
        return grading::Error{source + ":" + std::to_string(number) + ": the file ends after " + std::to_string(rows) +
                              " of the " + std::to_string(g.n) + " rows"};
    }
    return g;
}

grading::Expected<GridFile> loadGridFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return grading::Error{path + ": no grid file there (or it cannot be read)"};
    std::ostringstream text;
    text << in.rdbuf();
    return parseGridFile(text.str(), path);
}

std::string gridFileText(const std::string& what, int n, const std::vector<float>& cells) {
    std::string s = "# " + what + "\n" + std::to_string(n) + "\n";
    for (int row = 0; row < n; ++row) {
        for (int col = 0; col < n; ++col) {
            s += (col ? " " : "") + grading::formatText("%.9g", cells[static_cast<size_t>(row) * n + col]);
        }
        s += "\n";
    }
    return s;
}

}  // namespace day34::grids
