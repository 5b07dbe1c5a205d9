// grading.md and the gate declarations (the generated <build>/gates.tsv)
// cannot drift: every gate appears in a grading.md table row
// "| <id> | <checks> | <points> | <grades> | <requires> | ..." (the id as the
// first cell, backticks allowed), no row names a gate the table lacks, and
// the page's score table adds up to the declared points. The page stays a
// reference (issue 43): its gate index, holding every gate's row, opens it,
// it quotes no measurement and names no commit (measurements and their
// history belong in docs/performance.md).
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "fixtures.h"
#include "grading/gates.h"

namespace {

using Row = std::vector<std::string>;

constexpr size_t kGateIndexWithin = 150;  // lines from the top

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string trimmed(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t`");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t`") - b + 1);
}

// The cells of a Markdown table row, trimmed; "\|" stays inside a cell.
Row cellsOf(const std::string& line) {
    Row cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
            cell += '|';
            ++i;
        } else if (line[i] == '|') {
            cells.push_back(trimmed(cell));
            cell.clear();
        } else {
            cell += line[i];
        }
    }
    return cells;
}

// Table rows of a Markdown file by their first cell.
std::multimap<std::string, Row> rowsByFirstCell(const std::string& markdown) {
    std::multimap<std::string, Row> rows;
    for (const std::string& line : linesOf(markdown)) {
        if (line.rfind("|", 0) != 0) continue;
        const Row cells = cellsOf(line);
        if (!cells.empty()) rows.emplace(cells[0], cells);
    }
    return rows;
}

class GradingDoc : public ::testing::Test {
protected:
    const std::string docPath = std::string(GRADING_SOURCE_DIR) + "/grading.md";
    const std::vector<grading::report::Gate> gates = grading::report::loadGates(GRADING_GATES_TSV);
    const std::string doc = fixtures::read(docPath);
};

TEST_F(GradingDoc, ListsEveryGateWithItsPoints) {
    ASSERT_FALSE(doc.empty()) << "cannot read " << docPath;
    const auto rows = rowsByFirstCell(doc);
    for (const auto& g : gates) {
        const auto [begin, end] = rows.equal_range(g.id);
        std::string prerequisites = "-";
        for (const std::string& r : g.prerequisites) {
            prerequisites = (prerequisites == "-" ? "" : prerequisites + ", ") + r;
        }
        EXPECT_TRUE(begin != end) << "grading.md has no table row for " << g.id << "; want \"| " << g.id
                                  << " | <checks> | " << g.points << " | " << g.grades << " | " << prerequisites
                                  << " | <inputs> |\"";
        for (auto it = begin; it != end; ++it) {
            const Row& cells = it->second;
            ASSERT_GE(cells.size(), 5u) << "grading.md's row for " << g.id << " has fewer than five cells";
            EXPECT_EQ(cells[2], std::to_string(g.points)) << "grading.md's points for " << g.id;
            EXPECT_EQ(cells[3], g.grades) << "grading.md's grades cell for " << g.id;
            EXPECT_EQ(cells[4], prerequisites) << "grading.md's requires cell for " << g.id;
        }
    }
}

TEST_F(GradingDoc, NamesNoGateTheTableLacks) {
    ASSERT_FALSE(doc.empty()) << "cannot read " << docPath;
    std::set<std::string> known;
    for (const auto& g : gates) known.insert(g.id);
    for (const std::string& day : grading::report::daysOf(gates)) known.insert(day + ".builds");
    static const std::regex gateId("[a-z0-9]+\\.[a-z_]+");
    for (const auto& [first, cells] : rowsByFirstCell(doc)) {
        if (std::regex_match(first, gateId)) {
            EXPECT_TRUE(known.count(first)) << "grading.md has a row for " << first << ", which harness/gates.tsv lacks";
        }
    }
}

// "| <day> | <student points> | <gates> |" rows of the score table, and its
// "| total | <points> | ... |" row, agree with the declarations.
TEST_F(GradingDoc, TheScoreTableAddsUp) {
    const auto rows = rowsByFirstCell(doc);
    int total = 0;
    for (const std::string& day : grading::report::daysOf(gates)) {
        int points = 0;
        for (const auto& g : gates) {
            if (g.day == day && g.grades == "student") points += g.points;
        }
        total += points;
        const auto it = rows.find(day);
        ASSERT_NE(it, rows.end()) << "grading.md's score table has no row for " << day;
        ASSERT_GE(it->second.size(), 2u);
        EXPECT_EQ(it->second[1], std::to_string(points)) << "grading.md's score table, " << day;
    }
    const auto it = rows.find("total");
    ASSERT_NE(it, rows.end()) << "grading.md's score table has no total row";
    EXPECT_EQ(it->second[1], std::to_string(total));
}

TEST_F(GradingDoc, OpensWithTheGateIndex) {
    const std::vector<std::string> lines = linesOf(doc);
    size_t heading = 0;
    while (heading < lines.size() && lines[heading] != "## Gate index") ++heading;
    ASSERT_LT(heading, lines.size()) << "grading.md has no \"## Gate index\" heading";
    EXPECT_LT(heading, kGateIndexWithin) << "grading.md's gate index starts on line " << heading + 1 << ", want within "
                                         << kGateIndexWithin;
    std::map<std::string, size_t> rowLine;  // gate id -> its line in the index (1-based)
    for (size_t i = heading + 1; i < lines.size() && lines[i].rfind("## ", 0) != 0; ++i) {
        if (lines[i].rfind("|", 0) != 0) continue;
        const Row cells = cellsOf(lines[i]);
        if (!cells.empty()) rowLine.emplace(cells[0], i + 1);
    }
    for (const auto& g : gates) {
        const auto it = rowLine.find(g.id);
        if (it == rowLine.end()) {
            ADD_FAILURE() << "grading.md's gate index has no row for " << g.id;
        } else {
            EXPECT_LE(it->second, kGateIndexWithin) << "grading.md's gate index row for " << g.id << " is on line "
                                                    << it->second << ", want within " << kGateIndexWithin;
        }
    }
}

// A measured figure is a GPU named beside a number with a unit of time, a
// ratio or a percentage, or anything that "took" so long: it belongs in
// docs/performance.md, with its date and command, which the page points to.
TEST_F(GradingDoc, QuotesNoMeasurement) {
    ASSERT_FALSE(doc.empty()) << "cannot read " << docPath;
    static const std::regex gpu("\\b(H200|H100|A100|L4|T4)\\b");
    static const std::regex figure("\\b[0-9]+(\\.[0-9]+)?(-[0-9]+(\\.[0-9]+)?)? ?(s|ms|us|x|minutes?|seconds?)\\b|[0-9] ?%");
    static const std::regex took("\\btook\\b");
    // Paragraphs and list items, each with the line it starts on.
    const std::vector<std::string> lines = linesOf(doc);
    std::string block;
    size_t startedAt = 0;
    const auto judge = [&] {
        if ((std::regex_search(block, gpu) && std::regex_search(block, figure)) || std::regex_search(block, took)) {
            ADD_FAILURE() << "grading.md line " << startedAt + 1 << " quotes a measurement: " << block.substr(0, 160)
                          << "...; figures go in docs/performance.md, with their date, and the page points there";
        }
        block.clear();
    };
    for (size_t i = 0; i < lines.size(); ++i) {
        const bool startsBlock = trimmed(lines[i]).empty() || lines[i].rfind("- ", 0) == 0;
        if (startsBlock) judge();
        if (trimmed(lines[i]).empty()) continue;
        if (block.empty()) startedAt = i;
        block += lines[i] + "\n";
    }
    judge();
}

// A commit hash is 7 to 40 hex digits with a digit and a letter among them
// ("91c92e6"); plain numbers and all-letter words ("decade") are not one.
TEST_F(GradingDoc, NamesNoCommitHash) {
    static const std::regex hash("\\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\\b");
    const std::vector<std::string> lines = linesOf(doc);
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (std::regex_search(lines[i], m, hash)) {
            ADD_FAILURE() << "grading.md line " << i + 1 << " names a commit (" << m.str()
                          << "); the page describes the harness as it is, dates and figures go in docs/performance.md";
        }
    }
}

}  // namespace
