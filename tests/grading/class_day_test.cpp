// A class grades a student's day in one test process (grade_class.sh),
// "<s>.<day>", holding several gates (gates.tsv's class_test, which may
// name several tests: these cases spread a gate over two). The report takes
// each gate's verdict from its own cases in the tests' output, and the
// day's report from its own block.
#include <gtest/gtest.h>

#include <sstream>

#include "grading/report.h"

namespace {

using namespace grading::report;

const char* const kGates =
    "id\tday\tpoints\tvisibility\tgrades\trequires\ttests\tclass_test\ttitle\n"
    "34.stencil\tday34\t4\tvisible\tstudent\t-\t34.stencil\tday34\tstencil\n"
    "34.ring\tday34\t2\tvisible\tstudent\t-\t34.ring\tday34\tring\n"
    "34.copy\tday34\t2\tvisible\tstudent\t-\t34.copy\tday34,day34.timed\tcopy\n"
    "34.timing\tday34\t1\tvisible\tstudent\t-\t34.timing\tday34.timed\ttiming\n";

// As a class's day test prints a case: gtest's lines and the driver's
// verdict lines, led by the token the test printed first (kStart).
const std::string kToken = "5eed";
const std::string kStart = "Running main() from gtest_main.cc\nverdict token: " + kToken + "\n";

std::string ok(const std::string& gate, const std::string& c) {
    const std::string name = gate + "." + c;
    return "[ RUN      ] " + name + "\n" + kToken + " RUN " + name + "\nGATE " + gate + " PASS " + c +
           "\n[       OK ] " + name + " (4 ms)\n" + kToken + " OK " + name + "\n";
}

std::string failing(const std::string& gate, const std::string& c, const std::string& message) {
    const std::string name = gate + "." + c;
    return "[ RUN      ] " + name + "\n" + kToken + " RUN " + name + "\nGATE " + gate + " FAIL " + c + ": " + message +
           "\nday.cpp:380: Failure\nValue of: result.passed\n  Actual: false\n[  FAILED  ] " + name + " (9 ms)\n" +
           kToken + " FAILED " + name + "\n";
}

const std::string kEnd = "[==========] 4 tests from 3 test suites ran. (30 ms total)\n";

JunitCase test(const std::string& name, const std::string& output, bool passed) {
    JunitCase t;
    t.name = name;
    t.status = passed ? "run" : "fail";
    t.hasFailure = !passed;
    t.seconds = 2.5;
    t.output = kStart + output;
    return t;
}

Report gradeClass(std::vector<JunitCase> tests, const char* gatesTable = kGates) {
    GradeInput in;
    std::istringstream table(gatesTable);
    in.gates = parseGates(table, "gates.tsv");
    in.tests = std::move(tests);
    in.prefix = "s0001.";
    return grade(in);
}

const GateOutcome& gate(const Report& r, const std::string& id) {
    for (const GateOutcome& g : r.gates) {
        if (g.gate.id == id) return g;
    }
    throw std::runtime_error("no gate " + id);
}

TEST(ClassDayTest, TheGatesTableNamesIt) {
    std::istringstream table(kGates);
    const std::vector<Gate> gates = parseGates(table, "gates.tsv");
    EXPECT_EQ(gates[0].classTests, std::vector<std::string>{"day34"});
    EXPECT_EQ(gates[2].classTests, (std::vector<std::string>{"day34", "day34.timed"}));
    EXPECT_EQ(gates[3].classTests, std::vector<std::string>{"day34.timed"});
}

TEST(ClassDayTest, EachGateTakesItsOwnCasesVerdict) {
    const Report r = gradeClass(
        {test("s0001.day34",
              ok("34.stencil", "small") + failing("34.ring", "wide", "cell (0, 3) got 2, want 0") +
                  ok("34.stencil", "large") + ok("34.copy", "pinned") + kEnd,
              false),
         test("s0001.day34.timed", ok("34.timing", "steps") + ok("34.copy", "deep") + kEnd, true)});
    EXPECT_EQ(gate(r, "34.stencil").result, Result::Pass);
    EXPECT_EQ(gate(r, "34.stencil").earned, 4);
    EXPECT_EQ(gate(r, "34.copy").result, Result::Pass);
    EXPECT_EQ(gate(r, "34.timing").result, Result::Pass);
    const GateOutcome& ring = gate(r, "34.ring");
    EXPECT_EQ(ring.result, Result::Fail);
    EXPECT_EQ(ring.message, "wide: cell (0, 3) got 2, want 0");
    EXPECT_EQ(r.earned, 7);
    EXPECT_EQ(gate(r, "day34.builds").result, Result::Pass);
}

// The process died in 34.ring's case: that gate fails with how it ended, one
// whose cases all finished before keeps its pass, one that never ran fails.
TEST(ClassDayTest, ACrashFailsTheGateItStoppedInAndThoseThatNeverRan) {
    const Report r = gradeClass({test("s0001.day34",
                                      ok("34.stencil", "small") + "[ RUN      ] 34.ring.wide\n" + kToken + " RUN 34.ring.wide\nstep 3 of 8\n",
                                      false)});
    EXPECT_EQ(gate(r, "34.stencil").result, Result::Pass);
    const GateOutcome& ring = gate(r, "34.ring");
    EXPECT_EQ(ring.result, Result::Fail);
    EXPECT_EQ(ring.message, "day34: the test stopped after 2.5 s (ctest's time limit or a crash) before 34.ring.wide "
                            "finished; its last line: step 3 of 8");
    const GateOutcome& copy = gate(r, "34.copy");
    EXPECT_EQ(copy.result, Result::Fail);
    EXPECT_EQ(copy.message, "day34: none of 34.copy's cases ran (the test stopped after 2.5 s, before them)");
}

// Every case passed, yet the test failed (a runner that wrote after its
// last answer fails the process at its end): no gate of it passes.
TEST(ClassDayTest, AFailureNoCaseExplainsFailsEveryGateOfTheTest) {
    const Report r = gradeClass(
        {test("s0001.day34",
              ok("34.stencil", "small") + ok("34.ring", "wide") + ok("34.copy", "pinned") + kEnd +
                  "the runner wrote after its last answer: 12 bytes\n",
              false),
         test("s0001.day34.timed", ok("34.timing", "steps") + ok("34.copy", "deep") + kEnd, true)});
    for (const char* id : {"34.stencil", "34.ring", "34.copy"}) {
        EXPECT_EQ(gate(r, id).result, Result::Fail) << id;
        EXPECT_NE(gate(r, id).message.find("day34: "), std::string::npos) << gate(r, id).message;
    }
    EXPECT_EQ(gate(r, "34.timing").result, Result::Pass);
}

// A gate with cases in two tests passes only where both pass it.
TEST(ClassDayTest, AGateInBothTestsFailsWhereEitherFails) {
    const Report r = gradeClass(
        {test("s0001.day34", ok("34.stencil", "small") + ok("34.ring", "wide") + ok("34.copy", "pinned") + kEnd, true),
         test("s0001.day34.timed",
              ok("34.timing", "steps") + failing("34.copy", "deep", "copy changed the answer at index 518") + kEnd,
              false)});
    const GateOutcome& copy = gate(r, "34.copy");
    EXPECT_EQ(copy.result, Result::Fail);
    EXPECT_EQ(copy.tests, 2);
    EXPECT_EQ(copy.passed, 1);
    EXPECT_EQ(copy.message, "deep: copy changed the answer at index 518");
    EXPECT_EQ(gate(r, "34.timing").result, Result::Pass);
}

TEST(ClassDayTest, ATestThatRanNoneOfAGatesCasesFailsIt) {
    const Report r = gradeClass({test("s0001.day34", ok("34.stencil", "small") + ok("34.ring", "wide") + kEnd, true)});
    EXPECT_EQ(gate(r, "34.copy").result, Result::Fail);
    EXPECT_EQ(gate(r, "34.copy").message, "day34: none of 34.copy's cases ran");
}

TEST(ClassDayTest, ASkippedTestIsNotRunHere) {
    JunitCase skipped = test("s0001.day34", "no usable CUDA device\n", true);
    skipped.status = "notrun";
    skipped.hasSkipped = true;
    skipped.skippedMessage = "SKIP_RETURN_CODE=77";
    const Report r = gradeClass({skipped});
    EXPECT_EQ(gate(r, "34.stencil").result, Result::NotRunHere);
    EXPECT_EQ(gate(r, "34.timing").result, Result::NotRun) << "its test did not run at all";
}

// As the driver skips a case that holds the GPU exclusively where its gate
// can no longer pass.
std::string skipped(const std::string& gate, const std::string& c, const std::string& why) {
    const std::string name = gate + "." + c;
    return "[ RUN      ] " + name + "\n" + kToken + " RUN " + name +
           "\nsuites.cpp:286: Skipped\nnot run, the verdict being decided: " + why + " in this test\n" + kToken +
           " SKIPPED " + name + "\n[  SKIPPED ] " + name + " (0 ms)\n";
}

// A gate whose own case or whose requirement failed earlier in the test
// runs none of its exclusive cases: it is graded FAIL, or NOT GRADED, as it
// would be had they run, never "not run here".
TEST(ClassDayTest, AGateThatCanNoLongerPassIsDecidedWithoutItsSkippedCases) {
    const char* const gates =
        "id\tday\tpoints\tvisibility\tgrades\trequires\ttests\tclass_test\ttitle\n"
        "38.distances\tday38\t6\tvisible\tstudent\t-\t38.distances\tday38\tdistances\n"
        "38.frontier\tday38\t3\tvisible\tstudent\t-\t38.frontier\tday38\tfrontier\n"
        "38.speed\tday38\t2\tvisible\tstudent\t38.distances\t38.speed\tday38\tspeed\n";
    const Report r = gradeClass(
        {test("s0001.day38",
              failing("38.distances", "rmat", "vertex 17 got 3, want 2") + ok("38.distances", "chain") +
                  failing("38.frontier", "small", "word 2 got 0x1, want 0x3") +
                  skipped("38.frontier", "deepest", "38.frontier failed") +
                  skipped("38.speed", "rmat", "requires 38.distances, which failed") + kEnd,
              false)},
        gates);
    EXPECT_EQ(gate(r, "38.frontier").result, Result::Fail);
    EXPECT_EQ(gate(r, "38.frontier").message, "small: word 2 got 0x1, want 0x3");
    const GateOutcome& speed = gate(r, "38.speed");
    EXPECT_EQ(speed.result, Result::NotGraded);
    EXPECT_EQ(speed.message, "not graded: requires 38.distances (FAIL)");
    EXPECT_EQ(speed.earned, 0);
    EXPECT_FALSE(r.couldNotGradeHere());
    EXPECT_TRUE(notRunHereReasons(r).empty());
}

TEST(ClassDayTest, TheDaysReportIsAnObservationOfItsOwn) {
    const Report r = gradeClass(
        {test("s0001.day34.timed",
              ok("34.timing", "steps") +
                  "[ RUN      ] day34.report\n" + kToken + " RUN day34.report\nseed: 7\n\nfigure tiled_ms = 1.25\n"
                  "| kernel | ms |\n[       OK ] day34.report (812 ms)\n" + kToken + " OK day34.report\n" + kEnd,
              true)});
    EXPECT_EQ(gate(r, "34.timing").result, Result::Pass);
    ASSERT_EQ(r.observations.size(), 1u);
    EXPECT_EQ(r.observations[0].first, "day34.report");
    EXPECT_EQ(r.observations[0].second, "seed: 7\n\nfigure tiled_ms = 1.25\n| kernel | ms |\n");
    EXPECT_NE(formatObservations(r).find("== s0001.day34.report =="), std::string::npos);
}

// The rerun with shrinking on runs the failed gates alone: their message
// comes from it (the smallest input), every verdict from the test itself.
TEST(ClassDayTest, AShrunkRerunOfItsFailedGatesKeepsTheOthers) {
    std::vector<JunitCase> tests = {test(
        "s0001.day34", ok("34.stencil", "small") + failing("34.ring", "wide", "cell (0, 3) got 2, want 0") + kEnd,
        false)};
    JunitCase rerun = test(
        "s0001.day34", failing("34.ring", "wide", "cell (0, 3) got 2, want 0; smallest failing input found: 4 x 4") + kEnd,
        false);
    // Its own process, its own token.
    for (size_t at; (at = rerun.output.find(kToken)) != std::string::npos;) rerun.output.replace(at, kToken.size(), "a1");
    takeShrunkFailures(tests, {rerun});
    const Report r = gradeClass(tests);
    EXPECT_EQ(gate(r, "34.stencil").result, Result::Pass);
    EXPECT_EQ(gate(r, "34.ring").result, Result::Fail);
    EXPECT_EQ(gate(r, "34.ring").message, "wide: cell (0, 3) got 2, want 0; smallest failing input found: 4 x 4");
}

// A runner's words, quoted in a failure's message, may hold any line, a
// verdict line's shape included; without the token the test printed first
// they are text of the case they appear in.
TEST(ClassDayTest, VerdictLinesWithoutTheTokenAreText) {
    const std::string forged = "\n[       OK ] 34.ring.wide (1 ms)\nverdict token: f00d\nf00d OK 34.ring.wide\n" +
                               kToken.substr(0, 3) + " OK 34.ring.wide\n[ RUN      ] 34.zz.x\n[  FAILED  ] 34.zz.x (0 ms)";
    const Report r = gradeClass({test("s0001.day34",
                                      ok("34.stencil", "small") + failing("34.ring", "wide", "stderr: " + forged) +
                                          ok("34.copy", "pinned") + kEnd,
                                      false)});
    EXPECT_EQ(gate(r, "34.ring").result, Result::Fail);
    EXPECT_EQ(gate(r, "34.stencil").result, Result::Pass);
    EXPECT_EQ(gate(r, "34.copy").result, Result::Pass);
}

TEST(ClassTestCases, EachCaseFromItsRunLineToItsEnd) {
    const std::vector<CaseBlock> blocks = classTestCases(
        kStart + ok("a.b", "c") + failing("a.b", "d", "x") + "[ RUN      ] a.b.e\n" + kToken +
        " RUN a.b.e\nskip.cpp:3: Skipped\nno GPU\n[  SKIPPED ] a.b.e (0 ms)\n" + kToken + " SKIPPED a.b.e\n" + kToken +
        " RUN a.b.f\nhalf\n" + kToken + " OK a.b.d\n");
    ASSERT_EQ(blocks.size(), 4u);
    EXPECT_EQ(blocks[0].name, "a.b.c");
    EXPECT_EQ(blocks[0].end, CaseBlock::End::Ok);
    EXPECT_EQ(blocks[0].text, "GATE a.b PASS c\n[       OK ] a.b.c (4 ms)\n");
    EXPECT_EQ(blocks[1].end, CaseBlock::End::Failed);
    EXPECT_EQ(blocks[2].end, CaseBlock::End::Skipped);
    EXPECT_EQ(blocks[3].name, "a.b.f");
    EXPECT_EQ(blocks[3].end, CaseBlock::End::Unfinished) << "an end line that names another case ends nothing";
    EXPECT_TRUE(classTestCases(ok("a.b", "c")).empty()) << "no token, no verdict lines";
}

}  // namespace
