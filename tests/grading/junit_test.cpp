// The JUnit reader on files in ctest's own format (fixtures/junit_formats.xml
// was written by ctest 3.25: a pass, a gtest failure, a skip, a timeout, an
// executable that does not exist), plus hand-made entities and CDATA.
#include <gtest/gtest.h>

#include "fixtures.h"
#include "grading/junit.h"

namespace {

using grading::report::InputError;
using grading::report::JunitCase;
using grading::report::parseJunit;
using grading::report::plainTestName;

const JunitCase& find(const std::vector<JunitCase>& cases, const std::string& name) {
    for (const JunitCase& c : cases) {
        if (plainTestName(c.name) == name) return c;
    }
    throw std::runtime_error("no test " + name);
}

class JunitFormats : public ::testing::Test {
protected:
    std::vector<JunitCase> cases = grading::report::loadJunit(fixtures::path("junit_formats.xml"));
};

TEST_F(JunitFormats, ReadsEveryCase) { EXPECT_EQ(cases.size(), 9u); }

TEST_F(JunitFormats, Pass) {
    const JunitCase& t = find(cases, "submission.Ok.Fine");
    EXPECT_EQ(t.status, "run");
    EXPECT_FALSE(t.hasFailure);
    EXPECT_FALSE(t.hasSkipped);
    EXPECT_NE(t.output.find("GATE 38.levels PASS ctx\n"), std::string::npos);
}

TEST_F(JunitFormats, GtestFailure) {
    const JunitCase& t = find(cases, "submission.Assert.Probe");
    EXPECT_EQ(t.status, "fail");
    EXPECT_TRUE(t.hasFailure);
    EXPECT_EQ(t.failureMessage, "");  // ctest 3.25 leaves it empty; the reason is in the output
    EXPECT_NE(t.output.find("Expected: true\nthe runner for bfs did not finish in 30 s\n"), std::string::npos);
}

TEST_F(JunitFormats, SkippedThroughSkipRegularExpression) {
    const JunitCase& t = find(cases, "submission.Sk.Ip");
    EXPECT_EQ(t.status, "notrun");
    EXPECT_TRUE(t.hasSkipped);
    EXPECT_EQ(t.skippedMessage, "SKIP_REGULAR_EXPRESSION_MATCHED");
    EXPECT_NE(t.output.find("Skipped\nno usable CUDA device: nope\n"), std::string::npos);
}

TEST_F(JunitFormats, TimeoutIsAFailureWithNoOutput) {
    const JunitCase& t = find(cases, "timeout");
    EXPECT_EQ(t.status, "fail");
    EXPECT_TRUE(t.hasFailure);
    EXPECT_EQ(t.output, "");
    EXPECT_NEAR(t.seconds, 1.00294, 1e-9);
}

TEST_F(JunitFormats, ExecutableNotFound) {
    const JunitCase& t = find(cases, "missingexe");
    EXPECT_EQ(t.status, "notrun");
    EXPECT_EQ(t.skippedMessage, "Unable to find executable");
    EXPECT_EQ(t.output, "Unable to find executable: /nonexistent/foo");
}

TEST_F(JunitFormats, EntitiesInAttributesAndOutput) {
    const JunitCase& param = find(cases, "submission.Day38/D.Eq/edge_x");
    EXPECT_NE(param.name.find("# GetParam() = 32-byte object <80-F2"), std::string::npos);
    EXPECT_NE(param.name.find("00-00>"), std::string::npos);
    EXPECT_EQ(find(cases, "ent").output, "GATE x FAIL a<b & c>d \"q\" 's': m\n");
}

TEST_F(JunitFormats, NumericEntitiesCdataAndUnknownEntities) {
    EXPECT_EQ(find(cases, "numeric").output,
              "caf\xC3\xA9 \xF0\x9F\x98\x80 <&amp;> &bogus; 5 & 6 raw <b> & </b>");
}

TEST_F(JunitFormats, MissingSystemOutReadsAsEmpty) {
    const JunitCase& t = find(cases, "nosysout");
    EXPECT_EQ(t.status, "fail");
    EXPECT_EQ(t.failureMessage, "Failed");
    EXPECT_EQ(t.output, "");
}

TEST(JunitReader, PlainTestNameDropsTheGetParamDump) {
    EXPECT_EQ(plainTestName("submission.Day38/Walk.X/edge_star  # GetParam() = 64-byte object <B0-FC>"),
              "submission.Day38/Walk.X/edge_star");
    EXPECT_EQ(plainTestName("harness.Day38Gates.Levels"), "harness.Day38Gates.Levels");
}

TEST(JunitReader, TestsuitesWrapperAndMissingStatus) {
    const auto cases = parseJunit(
        "<testsuites><testsuite><testcase name=\"a\"/><testcase name=\"b\"><failure message=\"x\"/></testcase>"
        "<testcase name='c'><skipped/></testcase></testsuite></testsuites>",
        "w.xml");
    ASSERT_EQ(cases.size(), 3u);
    EXPECT_EQ(cases[0].status, "run");
    EXPECT_EQ(cases[1].status, "fail");
    EXPECT_EQ(cases[2].status, "notrun");
}

TEST(JunitReader, MalformedXmlNamesTheFileAndLine) {
    try {
        parseJunit("<?xml version=\"1.0\"?>\n<testsuite>\n<testcase name=\"a\">\n</testsuite>\n", "bad.xml");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "bad.xml:4: Start-end tags mismatch");  // pugixml's words
    }
    EXPECT_THROW(parseJunit("<testsuite><testcase name=\"a></testsuite>", "cut.xml"), InputError);
    EXPECT_THROW(parseJunit("<testsuite>", "open.xml"), InputError);
}

TEST(JunitReader, OtherRootIsNotJunit) {
    try {
        parseJunit("<html></html>", "page.xml");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "page.xml: not a JUnit file (root element <html>)");
    }
}

TEST(JunitReader, MissingFileIsAnInputError) {
    EXPECT_THROW(grading::report::loadJunit(fixtures::path("no-such.xml")), InputError);
}

}  // namespace
