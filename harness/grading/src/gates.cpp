#include "grading/gates.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "grading/junit.h"
#include "text_lines.h"

namespace grading::report {
namespace {

const char* const kColumns[] = {"id", "day", "points", "visibility", "tests", "title"};

}  // namespace

std::vector<Gate> parseGates(std::istream& in, const std::string& source) {
    std::vector<Gate> gates;
    std::map<std::string, size_t> column;
    std::set<std::string> ids;
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const std::string where = source + ":" + std::to_string(lineNo) + ": ";
        const std::vector<std::string> fields = text::splitTabs(line);
        if (column.empty()) {
            for (size_t i = 0; i < fields.size(); ++i) column[fields[i]] = i;
            for (const char* name : kColumns) {
                if (!column.count(name)) {
                    throw InputError(where + "the header lacks the column '" + name +
                                     "' (want tab-separated: id day points visibility tests title)");
                }
            }
            continue;
        }
        if (fields.size() != column.size()) {
            throw InputError(where + "expected " + std::to_string(column.size()) +
                             " tab-separated fields (id day points visibility tests title), got " +
                             std::to_string(fields.size()));
        }
        Gate g;
        g.id = fields[column["id"]];
        g.day = fields[column["day"]];
        g.visibility = fields[column["visibility"]];
        g.tests = fields[column["tests"]];
        g.title = fields[column["title"]];
        const std::string& points = fields[column["points"]];
        if (points.empty() || points.size() > 6 || !std::all_of(points.begin(), points.end(), ::isdigit)) {
            throw InputError(where + "points of " + g.id + " is '" + points + "', not a whole number");
        }
        g.points = std::stoi(points);
        for (const auto& [what, value] : {std::pair<const char*, const std::string&>{"id", g.id},
                                         {"day", g.day}, {"tests", g.tests}}) {
            if (value.empty() || value.find(' ') != std::string::npos) {
                throw InputError(where + "the " + what + " field is '" + value + "', want one word");
            }
        }
        static const std::set<std::string> visibilities = {"visible", "hidden", "after_due_date",
                                                           "after_published"};
        if (!visibilities.count(g.visibility)) {
            throw InputError(where + "visibility of " + g.id + " is '" + g.visibility +
                             "' (want visible, hidden, after_due_date or after_published)");
        }
        if (column.count("grades")) {
            g.grades = fields[column["grades"]];
            if (g.grades != "student" && g.grades != "course") {
                throw InputError(where + "grades of " + g.id + " is '" + g.grades + "' (want student or course)");
            }
        }
        if (column.count("requires") && fields[column["requires"]] != "-") {
            g.prerequisites = text::splitCommas(fields[column["requires"]]);
        }
        if (column.count("class_test") && fields[column["class_test"]] != "-") {
            g.classTests = text::splitCommas(fields[column["class_test"]]);
        }
        if (column.count("scored")) {
            const std::string& scored = fields[column["scored"]];
            if (scored != "yes" && scored != "no") {
                throw InputError(where + "scored of " + g.id + " is '" + scored + "' (want yes or no)");
            }
            g.scored = scored == "yes";
        }
        if (!ids.insert(g.id).second) throw InputError(where + "gate " + g.id + " is listed twice");
        gates.push_back(std::move(g));
    }
    if (column.empty()) throw InputError(source + ": no header line");
    for (const Gate& g : gates) {
        for (const std::string& r : g.prerequisites) {
            if (!ids.count(r)) throw InputError(source + ": gate " + g.id + " requires " + r + ", which is not in the table");
        }
    }
    return gates;
}

bool Gate::inClassTest(const std::string& name) const {
    return std::find(classTests.begin(), classTests.end(), name) != classTests.end();
}

std::vector<Gate> loadGates(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot open the gates table");
    return parseGates(in, path);
}

std::vector<std::string> daysOf(const std::vector<Gate>& gates) {
    std::vector<std::string> days;
    for (const Gate& g : gates) {
        if (std::find(days.begin(), days.end(), g.day) == days.end()) days.push_back(g.day);
    }
    return days;
}

bool globMatch(std::string_view pattern, std::string_view text) {
    // Iterative matcher with one backtrack point: linear enough for test names.
    size_t p = 0, t = 0, starP = std::string_view::npos, starT = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            starP = p++;
            starT = t;
        } else if (starP != std::string_view::npos) {
            p = starP + 1;
            t = ++starT;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

}  // namespace grading::report
