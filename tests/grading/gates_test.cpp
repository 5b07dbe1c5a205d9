// The gates table: its columns, its errors, and the globs that tie gates to tests.
#include <gtest/gtest.h>

#include <sstream>

#include "fixtures.h"
#include "grading/gates.h"
#include "grading/junit.h"

namespace {

using grading::report::globMatch;
using grading::report::InputError;
using grading::report::loadGates;

std::string errorOf(const std::string& fixture) {
    try {
        loadGates(fixtures::path(fixture));
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(GatesTable, ReadsEveryColumn) {
    const auto gates = loadGates(fixtures::path("gates_small.tsv"));
    ASSERT_EQ(gates.size(), 5u);
    EXPECT_EQ(gates[2].id, "38.walk");
    EXPECT_EQ(gates[2].day, "day38");
    EXPECT_EQ(gates[2].points, 2);
    EXPECT_EQ(gates[2].visibility, "hidden");
    EXPECT_EQ(gates[2].tests, "Day38/Walk.*");
    EXPECT_EQ(gates[2].title, "the isolated neighbour walk is the real walk");
    EXPECT_EQ(grading::report::daysOf(gates), (std::vector<std::string>{"day38", "msw"}));
}

TEST(GatesTable, ColumnsInAnyOrder) {
    std::istringstream in("title\tid\ttests\tday\tvisibility\tpoints\nlevel count\t38.levels\tDay38/Levels.*\tday38\tvisible\t1\n");
    const auto gates = grading::report::parseGates(in, "t.tsv");
    ASSERT_EQ(gates.size(), 1u);
    EXPECT_EQ(gates[0].id, "38.levels");
    EXPECT_EQ(gates[0].points, 1);
    EXPECT_EQ(gates[0].title, "level count");
}

#ifdef GRADING_GATES_TSV
TEST(GatesTable, TheGeneratedTableParses) {
    const auto gates = loadGates(GRADING_GATES_TSV);
    ASSERT_FALSE(gates.empty());
    for (const auto& g : gates) {
        // A scored gate (a speed gate) may be worth nothing until the instructor gives it points.
        if (g.scored) EXPECT_GE(g.points, 0) << g.id;
        else EXPECT_GT(g.points, 0) << g.id;
        EXPECT_EQ(g.id.find(g.day.rfind("day", 0) == 0 ? g.day.substr(3) + "." : g.day + "."), 0u)
            << g.id << " is not named after " << g.day;
    }
}
#endif

TEST(GatesTable, MalformedPointsNameTheLine) {
    EXPECT_EQ(errorOf("gates_malformed.tsv"),
              fixtures::path("gates_malformed.tsv") + ":4: points of 38.levels is 'one', not a whole number");
}

TEST(GatesTable, ShortRowNamesTheLineAndTheColumns) {
    EXPECT_EQ(errorOf("gates_short_row.tsv"),
              fixtures::path("gates_short_row.tsv") +
                  ":3: expected 6 tab-separated fields (id day points visibility tests title), got 5");
}

TEST(GatesTable, UnknownVisibility) {
    EXPECT_EQ(errorOf("gates_bad_visibility.tsv"),
              fixtures::path("gates_bad_visibility.tsv") +
                  ":2: visibility of 38.levels is 'public' (want visible, hidden, after_due_date or after_published)");
}

TEST(GatesTable, HeaderLackingAColumnAndDuplicates) {
    std::istringstream noTitle("id\tday\tpoints\tvisibility\ttests\n");
    EXPECT_THROW(grading::report::parseGates(noTitle, "h.tsv"), InputError);
    std::istringstream twice("id\tday\tpoints\tvisibility\ttests\ttitle\n"
                             "a.x\tday1\t1\tvisible\tA.*\tt\n"
                             "a.x\tday1\t1\tvisible\tB.*\tt\n");
    try {
        grading::report::parseGates(twice, "d.tsv");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "d.tsv:3: gate a.x is listed twice");
    }
    EXPECT_THROW(loadGates(fixtures::path("no-such.tsv")), InputError);
}

TEST(GatesGlob, MatchesTestNames) {
    EXPECT_TRUE(globMatch("Day38/Distances.*", "Day38/Distances.EqualHostBfsExactly/edge_rmat"));
    EXPECT_FALSE(globMatch("Day38/Distances.*", "Day38/Levels.EqualHostLevels/edge_rmat"));
    EXPECT_FALSE(globMatch("Day38/Walk.*", "Day38Report.Walk"));
    EXPECT_TRUE(globMatch("*Report.*", "Day38Report.WordGraph"));
    EXPECT_TRUE(globMatch("Day3?/*.Eq*/*_star", "Day38/Walk.EqualSums/edge_star"));
    EXPECT_FALSE(globMatch("Day3?/*.Eq*/*_star", "Day38/Walk.EqualSums/edge_stars"));
    EXPECT_TRUE(globMatch("*", ""));
    EXPECT_FALSE(globMatch("a*b*c", "aXbYd"));
}

}  // namespace
