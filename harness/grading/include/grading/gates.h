#pragma once
// harness/gates.tsv: the one table of gates that grading.md, the grade report
// and results.json all follow.
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace grading::report {

struct Gate {
    std::string id;          // "38.distances"
    std::string day;         // "day38"
    int points = 0;
    std::string visibility;  // Gradescope's: visible, hidden, after_due_date, after_published
    std::string tests;       // glob over gtest names, e.g. "Day38/Distances.*"
    std::string title;
};

// '#' lines and blank lines are skipped; the first other line is the header
// naming the columns (any order; extra columns ignored). Throws InputError
// naming `source` and the line of the first malformed row.
std::vector<Gate> parseGates(std::istream& in, const std::string& source);
std::vector<Gate> loadGates(const std::string& path);

// The days in order of first appearance.
std::vector<std::string> daysOf(const std::vector<Gate>& gates);

// '*' matches any run of characters ('/' and '.' included), '?' any one.
bool globMatch(std::string_view pattern, std::string_view text);

}  // namespace grading::report
