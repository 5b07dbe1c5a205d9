// Gate verdicts, points and the forms they are handed out in, on
// fixtures/day38_mixed.xml: 38.distances has one GATE failure and one runner
// failure, 38.levels passes, 38.walk is skipped (no GPU), 38.timing was
// killed by ctest, and msw has no tests at all.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "fixtures.h"
#include "grading/report.h"
#include "json_check.h"

namespace {

using namespace grading::report;

GradeInput mixedInput() {
    GradeInput in;
    in.gates = loadGates(fixtures::path("gates_small.tsv"));
    in.tests = loadJunit(fixtures::path("day38_mixed.xml"));
    in.ctestLog = fixtures::text("ctest_timeout.log");
    return in;
}

const GateOutcome& gate(const Report& r, const std::string& id) {
    for (const GateOutcome& g : r.gates) {
        if (g.gate.id == id) return g;
    }
    throw std::runtime_error("no gate " + id);
}

std::string firstLineOf(const std::string& s) { return s.substr(0, s.find('\n')); }

JunitCase passed(const std::string& name) {
    JunitCase t;
    t.name = name;
    t.status = "run";
    t.output = "GATE x PASS ctx\n[       OK ] " + name + "\n";
    return t;
}

TEST(GateVerdict, AllTestsPassed) {
    const Report r = grade(mixedInput());
    const GateOutcome& g = gate(r, "38.levels");
    EXPECT_EQ(g.result, Result::Pass);
    EXPECT_EQ(g.earned, 1);
    EXPECT_EQ(g.tests, 1);
    EXPECT_EQ(g.message, "");
}

TEST(GateVerdict, FirstFailureIsTheGateLineAndTheRestAreCounted) {
    const Report r = grade(mixedInput());
    const GateOutcome& g = gate(r, "38.distances");
    EXPECT_EQ(g.result, Result::Fail);
    EXPECT_EQ(g.earned, 0);
    EXPECT_EQ(g.tests, 3);
    EXPECT_EQ(g.passed, 1);
    EXPECT_EQ(g.failed, 2);
    EXPECT_EQ(g.message, "edge mapping on rmat (seed 7): vertex 12 (\"a<b\") got 3, want 2 (+1 more failing test)");
    ASSERT_EQ(g.failures.size(), 2u);
    // No GATE line: the runner's reason from the gtest failure, without the expression dump.
    EXPECT_EQ(g.failures[1],
              "Day38/Distances.EqualHostBfsExactly/edge_star: the day38 runner failed (exit status 2): error: the "
              "submission file /subs/alice/day38/edge_mapping.cu is missing");
}

TEST(GateVerdict, SkippedEverywhereIsNotRunHereNotPass) {
    const Report r = grade(mixedInput());
    const GateOutcome& g = gate(r, "38.walk");
    EXPECT_EQ(g.result, Result::NotRunHere);
    EXPECT_STREQ(resultName(g.result), "NOT RUN");
    EXPECT_EQ(g.earned, 0);
    EXPECT_EQ(g.message, "no usable CUDA device: cudaErrorNoDevice: no CUDA-capable device is detected");
    EXPECT_FALSE(r.allPassed());
    EXPECT_FALSE(r.couldNotGradeHere()) << "other gates failed: that is a verdict";
}

// Only gates this machine could not run, none failed: no verdict on the
// code, and the reason once however many gates it stopped.
TEST(GateVerdict, OnlyGatesThatCouldNotRunHereIsNotGradedHere) {
    GradeInput in;
    in.gates = loadGates(fixtures::path("gates_small.tsv"));
    in.days = {"day38"};
    const std::string noSandbox = "the runner for `probe` was not started: the sandbox cannot start (bwrap is not on PATH)";
    for (const char* name : {"submission.Day38/Distances.A/x", "submission.Day38/Levels.A/x",
                             "submission.Day38/Walk.A/x", "submission.Day38/Timing.A/0"}) {
        JunitCase t = passed(name);
        t.output = "x.cpp:1: Skipped\n" + noSandbox + "\n[  SKIPPED ] x (1 ms)\n";
        in.tests.push_back(t);
    }
    in.tests.push_back(passed("submission.day38.builds"));
    const Report r = grade(in);
    EXPECT_TRUE(r.couldNotGradeHere());
    EXPECT_EQ(notRunHereReasons(r), std::vector<std::string>{noSandbox});
    const std::string table = formatTable(r);
    EXPECT_EQ(table.find(noSandbox), table.rfind(noSandbox)) << "said more than once:\n" << table;
    EXPECT_EQ(table.find("FAIL"), std::string::npos) << table;
    EXPECT_NE(table.find("verdict: NOT GRADED: 4 gates could not run on this machine (above), none failed\n"),
              std::string::npos)
        << table;
}

TEST(GateVerdict, SkipWithoutSkipRegularExpressionIsStillASkip) {
    GradeInput in;
    in.gates = loadGates(fixtures::path("gates_small.tsv"));
    in.days = {"day38"};
    JunitCase t = passed("submission.Day38/Levels.EqualHostLevels/edge_star");
    t.output = "x.cpp:43: Skipped\nno usable CUDA device: none\n[  SKIPPED ] Day38/Levels.EqualHostLevels/edge_star (1 ms)\n";
    in.tests = {t, passed("submission.Day38/Levels.EqualHostLevels/edge_chain")};
    const Report r = grade(in);
    const GateOutcome& g = gate(r, "38.levels");
    EXPECT_EQ(g.result, Result::NotRunHere);
    EXPECT_EQ(g.message, "no usable CUDA device: none (1 of 2 tests skipped)");
}

TEST(GateVerdict, NoMatchingTestIsNotRun) {
    const Report r = grade(mixedInput());
    EXPECT_EQ(gate(r, "msw.index").result, Result::NotRun);
    EXPECT_EQ(gate(r, "msw.index").message, "no test matches submission.Msw/Index.*: did the msw suite build and run?");
    EXPECT_EQ(gate(r, "msw.builds").result, Result::NotRun);
    EXPECT_EQ(gate(r, "day38.builds").result, Result::Pass);
}

TEST(GateVerdict, TimeoutFromTheCtestLog) {
    EXPECT_EQ(gate(grade(mixedInput()), "38.timing").message,
              "Day38/Timing.EveryFigureIsPositive/0: killed by ctest at its time limit (Timeout after 300.01 s)");
}

TEST(GateVerdict, TimeoutWithoutTheCtestLog) {
    GradeInput in = mixedInput();
    in.ctestLog.reset();
    EXPECT_EQ(gate(grade(in), "38.timing").message,
              "Day38/Timing.EveryFigureIsPositive/0: no output; the test ended after 300.0 s (ctest's time limit or "
              "a crash; give --ctest-log to know which)");
}

TEST(GateVerdict, KilledMidwayKeepsTheLastLine) {
    GradeInput in;
    in.gates = loadGates(fixtures::path("gates_small.tsv"));
    JunitCase t;
    t.name = "submission.Day38/Levels.EqualHostLevels/edge_star";
    t.status = "fail";
    t.hasFailure = true;
    t.seconds = 12.25;
    t.output = "[ RUN      ] Day38/Levels.EqualHostLevels/edge_star\nseed: 7\n";
    in.tests = {t};
    EXPECT_EQ(gate(grade(in), "38.levels").message,
              "Day38/Levels.EqualHostLevels/edge_star: the test stopped after 12.2 s before it finished (ctest's "
              "time limit or a crash); its last line: seed: 7");
}

TEST(GateVerdict, TestCtestCouldNotStartFails) {
    GradeInput in;
    in.gates = loadGates(fixtures::path("gates_small.tsv"));
    JunitCase t;
    t.name = "submission.Day38/Levels.A/x";
    t.status = "notrun";
    t.hasSkipped = true;
    t.skippedMessage = "Unable to find executable";
    t.output = "Unable to find executable: /b/tests/day38/day38_tests";
    in.tests = {t};
    const Report r = grade(in);
    EXPECT_EQ(gate(r, "38.levels").result, Result::Fail);
    EXPECT_EQ(gate(r, "38.levels").message, "Day38/Levels.A/x: Unable to find executable: /b/tests/day38/day38_tests");
}

TEST(GateVerdict, PointsAndTotals) {
    const Report r = grade(mixedInput());
    ASSERT_EQ(r.days.size(), 2u);
    EXPECT_EQ(r.days[0].day, "day38");
    EXPECT_EQ(r.days[0].earned, 1);
    EXPECT_EQ(r.days[0].max, 8);
    EXPECT_EQ(r.days[0].gatesPassed, 1);
    EXPECT_EQ(r.days[0].gates, 4);
    EXPECT_EQ(r.days[1].max, 6);
    EXPECT_EQ(r.earned, 1);
    EXPECT_EQ(r.max, 14);
    EXPECT_EQ(scoreLine(r), "score: 1/14 points (day38 1/8, msw 0/6)");
}

TEST(GateVerdict, EveryGatePassing) {
    GradeInput in;
    in.gates = loadGates(fixtures::path("gates_small.tsv"));
    in.days = {"day38"};
    for (const char* name : {"Distances.A/x", "Levels.A/x", "Walk.A/x", "Timing.A/0"}) {
        in.tests.push_back(passed(std::string("submission.Day38/") + name));
    }
    const Report r = grade(in);
    EXPECT_TRUE(r.allPassed());
    EXPECT_EQ(r.earned, 8);
    EXPECT_EQ(r.max, 8);
    EXPECT_NE(formatTable(r).find("verdict: PASS, every gate passed\n"), std::string::npos);
}

TEST(GateVerdict, PrefixSelectsTheRunner) {
    GradeInput in = mixedInput();
    in.prefix = "reference.";
    const Report r = grade(in);
    EXPECT_EQ(gate(r, "38.timing").result, Result::Pass);
    EXPECT_EQ(gate(r, "38.distances").result, Result::NotRun);
}

TEST(GateVerdict, LaterJunitFileReplacesAnEarlierResult) {
    GradeInput in = mixedInput();
    in.tests.push_back(passed("submission.Day38/Timing.EveryFigureIsPositive/0  # GetParam() = \"edge\""));
    EXPECT_EQ(gate(grade(in), "38.timing").result, Result::Pass);
}

TEST(GateVerdict, DaysFilter) {
    GradeInput in = mixedInput();
    in.days = {"msw"};
    const Report r = grade(in);
    ASSERT_EQ(r.gates.size(), 2u);
    EXPECT_EQ(r.gates[0].gate.id, "msw.builds");
    EXPECT_EQ(r.max, 6);
    in.days = {"day99"};
    try {
        grade(in);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "unknown day 'day99' (the gates table has day38, msw)");
    }
}

TEST(GateVerdict, CompileFailureFailsTheBuildsGateAndOverridesStaleResults) {
    GradeInput in = mixedInput();
    in.buildRecords = loadBuildRecords(fixtures::path("build_records"));
    const Report r = grade(in);
    const GateOutcome& builds = gate(r, "day38.builds");
    EXPECT_EQ(builds.result, Result::Fail);
    EXPECT_EQ(builds.gate.points, 0);
    EXPECT_EQ(firstLineOf(builds.message),
              "/subs/alice/day38/edge_mapping.cu(63): error: expected a declaration");
    EXPECT_EQ(gate(r, "38.levels").result, Result::Fail);
    EXPECT_EQ(gate(r, "38.levels").message, "does not compile: see day38.builds (1 test results not counted)");
    EXPECT_EQ(r.earned, 0);
    // msw has no tests; its include check's record says why.
    EXPECT_EQ(gate(r, "msw.builds").result, Result::Fail);
    EXPECT_EQ(firstLineOf(gate(r, "msw.builds").message),
              "/subs/alice/msw/find_mismatch.cpp: error: it includes /src/reference/msw/solution/find_mismatch.cpp, "
              "which the course does not provide: a submission compiles against the course's headers only");
    EXPECT_EQ(gate(r, "msw.index").message, "does not compile: see msw.builds");
}

TEST(GateVerdict, MissingFileFailsTheDayNamingIt) {
    GradeInput in = mixedInput();
    in.buildRecords = parseBuildRecords(
        "day\tstep\ttarget\tfile\tstatus\terror\n"
        "day38\tmissing\tday38_runner_submission\t/subs/bob/day38/edge_mapping.cu\t\t\n",
        "r.tsv");
    const Report r = grade(in);
    EXPECT_EQ(gate(r, "day38.builds").result, Result::Fail);
    EXPECT_EQ(gate(r, "day38.builds").message, "the submission file /subs/bob/day38/edge_mapping.cu is missing");
    EXPECT_EQ(gate(r, "38.levels").message,
              "the submission file is missing: see day38.builds (1 test results not counted)");
    EXPECT_EQ(gate(r, "msw.builds").result, Result::NotRun);
}

TEST(ReportOutput, Table) {
    EXPECT_EQ(formatTable(grade(mixedInput())),
              R"(could not grade on this machine (the gates below that read NOT RUN):
  no usable CUDA device: cudaErrorNoDevice: no CUDA-capable device is detected

gate          result   points  first failure
day38.builds  PASS     0/0
38.distances  FAIL     0/4     edge mapping on rmat (seed 7): vertex 12 ("a<b") got 3, want 2 (+1 more failing test)
38.levels     PASS     1/1
38.walk       NOT RUN  0/2     not run on this machine (above)
38.timing     FAIL     0/1     Day38/Timing.EveryFigureIsPositive/0: killed by ctest at its time limit (Timeout after 300.01 s)
msw.builds    NOT RUN  0/0     no submission. test of msw in the JUnit files: not built, or not run
msw.index     NOT RUN  0/6     no test matches submission.Msw/Index.*: did the msw suite build and run?

day38  1/8     1 of 4 gates passed
msw    0/6     0 of 1 gates passed
total  1/14

verdict: NOT PASSED: 2 failed, 1 not run on this machine, 2 not run
score: 1/14 points (day38 1/8, msw 0/6)
)");
}

TEST(ReportOutput, ObservationsOfTheSelectedDaysWithoutGtestChatter) {
    EXPECT_EQ(formatObservations(grade(mixedInput())),
              "== submission.day38.report ==\n"
              "level  frontier  edges\n"
              "0      1         719\n"
              "1      719       10512\n\n");
}

TEST(ReportOutput, ResultsJsonSchema) {
    const Report r = grade(mixedInput());
    const json_check::Value doc = json_check::parse(resultsJson(r, formatTable(r)));
    using Type = json_check::Value::Type;
    ASSERT_EQ(doc.type, Type::Object);
    ASSERT_TRUE(doc.has("score") && doc["score"].type == Type::Number);
    ASSERT_TRUE(doc.has("max_score") && doc["max_score"].type == Type::Number);
    ASSERT_TRUE(doc.has("output") && doc["output"].type == Type::String);
    ASSERT_TRUE(doc.has("tests") && doc["tests"].type == Type::Array);
    EXPECT_FALSE(doc.has("leaderboard"));
    EXPECT_EQ(doc["output"].string, formatTable(r));

    const std::set<std::string> visibilities = {"visible", "hidden", "after_due_date", "after_published"};
    double score = 0, maxScore = 0;
    ASSERT_EQ(doc["tests"].array.size(), r.gates.size());
    for (size_t i = 0; i < r.gates.size(); ++i) {
        const json_check::Value& t = doc["tests"].array[i];
        for (const char* key : {"name", "output", "visibility"}) {
            ASSERT_TRUE(t.has(key) && t[key].type == Type::String) << key;
        }
        for (const char* key : {"score", "max_score"}) ASSERT_TRUE(t.has(key) && t[key].type == Type::Number) << key;
        EXPECT_EQ(t["name"].string, r.gates[i].gate.id + " " + r.gates[i].gate.title);
        // A gate that never ran is neither passed nor failed: no status, and its extra_data says so.
        const Result result = r.gates[i].result;
        if (result == Result::NotRunHere || result == Result::NotRun) {
            EXPECT_FALSE(t.has("status")) << t["name"].string;
            ASSERT_TRUE(t.has("extra_data")) << t["name"].string;
            EXPECT_EQ(t["extra_data"]["result"].string,
                      result == Result::NotRunHere ? "not run on this machine" : "not run");
        } else {
            EXPECT_EQ(t["status"].string, result == Result::Pass ? "passed" : "failed");
        }
        EXPECT_TRUE(visibilities.count(t["visibility"].string)) << t["visibility"].string;
        EXPECT_LE(t["score"].number, t["max_score"].number);
        score += t["score"].number;
        maxScore += t["max_score"].number;
    }
    EXPECT_EQ(score, doc["score"].number);
    EXPECT_EQ(maxScore, doc["max_score"].number);
    EXPECT_EQ(doc["score"].number, 1);
    EXPECT_EQ(doc["max_score"].number, 14);

    const json_check::Value& distances = doc["tests"].array[1];
    EXPECT_EQ(distances["name"].string, "38.distances exact distances");
    EXPECT_EQ(distances["output"].string,
              "FAIL: edge mapping on rmat (seed 7): vertex 12 (\"a<b\") got 3, want 2 (+1 more failing test)\n"
              "failing tests (2 of 3):\n"
              "- edge mapping on rmat (seed 7): vertex 12 (\"a<b\") got 3, want 2\n"
              "- Day38/Distances.EqualHostBfsExactly/edge_star: the day38 runner failed (exit status 2): error: the "
              "submission file /subs/alice/day38/edge_mapping.cu is missing");
    EXPECT_EQ(doc["tests"].array[3]["visibility"].string, "hidden");
}

// The first failing test's "counterexample <json>" line (harness/shrink.h)
// goes into the gate's extra_data for the page to draw; a line that is no
// JSON object, a passing test's, or one quoted inside another line is not.
TEST(ReportOutput, AFailingTestsCounterexampleGoesIntoResultsJson) {
    GradeInput in;
    std::istringstream table("id\tday\tpoints\tvisibility\ttests\ttitle\n38.distances\tday38\t4\tvisible\t38.distances.*\td\n"
                             "38.levels\tday38\t1\tvisible\t38.levels.*\tl\n");
    in.gates = parseGates(table, "gates.tsv");
    JunitCase failing = passed("submission.38.distances.edge");
    failing.status = "fail";
    failing.hasFailure = true;
    failing.output = "GATE 38.distances FAIL x: runner said counterexample {\"kind\":\"forged\"}\n"
                     "counterexample {not json\n"
                     "counterexample {\"kind\":\"graph\",\"labels\":[\"a\"],\"edges\":[]}\n"
                     "counterexample {\"kind\":\"second\"}\n" + failing.output;
    JunitCase passing = passed("submission.38.levels.edge");
    passing.output = "counterexample {\"kind\":\"graph\"}\n" + passing.output;
    in.tests = {failing, passing};
    const Report r = grade(in);
    EXPECT_EQ(gate(r, "38.distances").counterexample, R"({"edges":[],"kind":"graph","labels":["a"]})");
    EXPECT_EQ(gate(r, "38.levels").counterexample, "");
    const json_check::Value doc = json_check::parse(resultsJson(r, ""));
    std::map<std::string, json_check::Value> tests;
    for (const json_check::Value& t : doc["tests"].array) tests[t["name"].string] = t;
    ASSERT_TRUE(tests.count("38.distances d") && tests.count("38.levels l"));
    const json_check::Value& picture = tests["38.distances d"]["extra_data"]["counterexample"];
    EXPECT_EQ(picture["kind"].string, "graph");
    EXPECT_EQ(picture["labels"].array.at(0).string, "a");
    EXPECT_FALSE(tests["38.levels l"].has("extra_data"));
}

TEST(ReportOutput, ResultsJsonEscapesControlsAndInvalidUtf8) {
    GradeInput in;
    in.gates = loadGates(fixtures::path("gates_small.tsv"));
    in.days = {"day38"};
    JunitCase t;
    t.name = "submission.Day38/Levels.A/x";
    t.status = "fail";
    t.output = std::string("GATE 38.levels FAIL ctx: stderr said \x01\"\\\t\xff\xc3(caf\xc3\xa9)\n");
    in.tests = {t};
    const json_check::Value doc = json_check::parse(resultsJson(grade(in), ""));
    EXPECT_EQ(doc["tests"].array[2]["output"].string,
              "FAIL: ctx: stderr said \x01\"\\\t\xEF\xBF\xBD\xEF\xBF\xBD(caf\xc3\xa9)");
}

TEST(ReportOutput, SummaryRow) {
    EXPECT_EQ(summaryRow(grade(mixedInput()), "alice\tsmith"),
              "student\tday38.builds\t38.distances\t38.levels\t38.walk\t38.timing\tmsw.builds\tmsw.index\ttotal\tmax\t"
              "flagged\nalice smith\tok\t0\t1\tnot run\t0\t-\t-\t1\t14\t0\n");
}

// The pre-check's findings reach the class table as a count beside the
// points, and change no points.
TEST(ReportOutput, SummaryRowCountsTheLinesFlaggedForReview) {
    GradeInput in = mixedInput();
    in.flags = {{"edge_mapping.cu", 12, "process-control", "system(\"ls\");"},
                {"edge_mapping.cu", 30, "threads", "std::thread t(spin);"}};
    const Report flagged = grade(in);
    EXPECT_EQ(flagged.earned, grade(mixedInput()).earned);
    const std::string row = summaryRow(flagged, "bob");
    EXPECT_EQ(row.substr(row.find('\n') + 1), "bob\tok\t0\t1\tnot run\t0\t-\t-\t1\t14\t2\n");
}

TEST(ReportOutput, ClassTable) {
    const ClassTable table = mergeSummaryRows({
        {"alice.tsv", "student\tday38.builds\t38.levels\ttotal\tmax\nalice\tok\t1\t1\t1\n"},
        {"bob.tsv", "student\tday38.builds\t38.levels\tmsw.index\ttotal\tmax\nbob, jr\tFAIL\t-\t6\t6\t7\n"},
    });
    EXPECT_EQ(toCsv(table),
              "student,day38.builds,38.levels,msw.index,total,max\n"
              "alice,ok,1,,1,1\n"
              "\"bob, jr\",FAIL,-,6,6,7\n");
    EXPECT_EQ(toMarkdown(table),
              "| student | day38.builds | 38.levels | msw.index | total | max |\n"
              "| --- | ---: | ---: | ---: | ---: | ---: |\n"
              "| alice | ok | 1 |  | 1 | 1 |\n"
              "| bob, jr | FAIL | - | 6 | 6 | 7 |\n");
    EXPECT_THROW(mergeSummaryRows({{"x.tsv", "alice\t1\n"}}), InputError);
}

}  // namespace

// ---- what the day declarations add: requirements, course gates, the header

GradeInput declaredInput(const std::vector<std::string>& passing, const std::vector<std::string>& failing) {
    std::istringstream table(
        "id\tday\tpoints\tvisibility\tgrades\trequires\ttimed\ttests\ttitle\n"
        "34.stencil\tday34\t4\tvisible\tstudent\t-\tno\t34.stencil\tstencil\n"
        "34.ring\tday34\t2\tvisible\tstudent\t34.stencil\tno\t34.ring\tring\n"
        "34.course\tday34\t1\tvisible\tcourse\t-\tno\t34.course\ta course check\n");
    GradeInput in;
    in.gates = parseGates(table, "declared.tsv");
    for (const std::string& id : passing) in.tests.push_back(passed("submission." + id));
    for (const std::string& id : failing) {
        JunitCase t;
        t.name = "submission." + id;
        t.status = "fail";
        t.hasFailure = true;
        t.output = "GATE " + id + " FAIL tiled on n = 37: row 1, col 2: got 0, want 1\n";
        in.tests.push_back(t);
    }
    return in;
}

TEST(GateVerdict, AGateWhoseRequirementFailedIsNotGradedAndEarnsNothing) {
    const Report r = grade(declaredInput({"34.ring"}, {"34.stencil"}));
    const GateOutcome& ring = gate(r, "34.ring");
    EXPECT_EQ(ring.result, Result::NotGraded);
    EXPECT_EQ(ring.earned, 0);
    EXPECT_EQ(ring.message, "not graded: requires 34.stencil (FAIL)");
    EXPECT_EQ(r.earned, 0);
    EXPECT_EQ(r.max, 6);
    EXPECT_NE(formatTable(r).find("34.ring       NOT GRADED  0/2     not graded: requires 34.stencil (FAIL)\n"),
              std::string::npos)
        << formatTable(r);
}

TEST(GateVerdict, AGateWhoseRequirementPassedKeepsItsVerdict) {
    const Report r = grade(declaredInput({"34.stencil", "34.ring"}, {}));
    EXPECT_EQ(gate(r, "34.ring").result, Result::Pass);
    EXPECT_EQ(r.earned, 6);
}

TEST(GateVerdict, CourseGatesAreNotASubmissionsToEarn) {
    const Report r = grade(declaredInput({"34.stencil", "34.ring"}, {}));
    EXPECT_THROW(gate(r, "34.course"), std::runtime_error);
    GradeInput reference = declaredInput({}, {});
    reference.prefix = "reference.";
    reference.tests = {passed("reference.34.stencil"), passed("reference.34.ring"), passed("reference.34.course")};
    const Report ref = grade(reference);
    EXPECT_EQ(gate(ref, "34.course").result, Result::Pass);
    EXPECT_EQ(ref.max, 7);
}

TEST(ReportOutput, TheHeaderSaysWhatWasGradedInTheTableAndInResultsJson) {
    GradeInput in = declaredInput({"34.stencil", "34.ring"}, {});
    in.header = {{"submission", "/subs/alice"}, {"seed", "42"}};
    in.tests[0].output = "device: NVIDIA H200 at 0000:00:06.0\n" + in.tests[0].output;
    const Report r = grade(in);
    EXPECT_EQ(formatTable(r).rfind("submission: /subs/alice\nseed: 42\ngpu: NVIDIA H200 at 0000:00:06.0\n\n", 0), 0u)
        << formatTable(r);
    const json_check::Value doc = json_check::parse(resultsJson(r, ""));
    EXPECT_EQ(doc["extra_data"]["submission"].string, "/subs/alice");
    EXPECT_EQ(doc["extra_data"]["gpu"].string, "NVIDIA H200 at 0000:00:06.0");
}

TEST(GatesTable, ARequirementOutsideTheTableIsAnError) {
    std::istringstream table(
        "id\tday\tpoints\tvisibility\tgrades\trequires\ttests\ttitle\n"
        "34.ring\tday34\t2\tvisible\tstudent\t34.stencil\t34.ring\tring\n");
    EXPECT_THROW(parseGates(table, "t.tsv"), InputError);
}

namespace {

// A scored gate (a speed gate) of 5 points whose tests printed these lines.
Report gradeScored(const std::vector<std::string>& outputs) {
    GradeInput in;
    std::istringstream table(
        "id\tday\tpoints\tvisibility\tscored\ttests\ttitle\n38.speed\tday38\t5\tvisible\tyes\t38.speed.*\tspeed\n");
    in.gates = parseGates(table, "gates.tsv");
    for (size_t k = 0; k < outputs.size(); ++k) {
        JunitCase t = passed("submission.38.speed.case" + std::to_string(k));
        t.output = outputs[k] + "\n" + t.output;
        in.tests.push_back(t);
    }
    return grade(in);
}

}  // namespace

TEST(ScoredGate, EarnsItsLowestScoresShareOfThePoints) {
    const Report r = gradeScored({"SCORE 38.speed 1 walks: 1.05x, 100% of the points",
                                  "SCORE 38.speed 0.42 walks: 5.9x, 42% of the points"});
    const GateOutcome& g = gate(r, "38.speed");
    EXPECT_EQ(g.result, Result::Pass);
    EXPECT_EQ(g.earned, 2);  // 5 x 0.42, rounded
    EXPECT_EQ(g.message, "walks: 5.9x, 42% of the points");
    EXPECT_EQ(r.earned, 2);
    EXPECT_EQ(r.max, 5);
}

TEST(ScoredGate, NoScoreLineEarnsNothingAndSaysSo) {
    const Report r = gradeScored({"GATE 38.speed PASS ctx"});
    const GateOutcome& g = gate(r, "38.speed");
    EXPECT_EQ(g.earned, 0);
    EXPECT_EQ(g.message, "no score: its tests printed no SCORE line");
}

// Only the gate's own lines count, and a score outside 0..1 is no score.
TEST(ScoredGate, IgnoresOtherGatesAndOutOfRangeScores) {
    const Report r = gradeScored({"SCORE 38.walk 0 other gate", "SCORE 38.speed 7 forged", "SCORE 38.speed 0.8 fine"});
    const GateOutcome& g = gate(r, "38.speed");
    EXPECT_EQ(g.earned, 4);
    EXPECT_EQ(g.message, "fine");
}

TEST(ScoredGate, AFailingTestStillFailsTheGate) {
    GradeInput in;
    std::istringstream table(
        "id\tday\tpoints\tvisibility\tscored\ttests\ttitle\n38.speed\tday38\t5\tvisible\tyes\t38.speed.*\tspeed\n");
    in.gates = parseGates(table, "gates.tsv");
    JunitCase t = passed("submission.38.speed.case");
    t.status = "fail";
    t.hasFailure = true;
    t.output = "SCORE 38.speed 1 looks fine\n" + t.output;
    in.tests = {t};
    EXPECT_EQ(gate(grade(in), "38.speed").earned, 0);
}

// A large gate's cases run as ctest shards "<gate>.shard<k>of<n>"; together
// they are the gate, and a shard that never ran leaves it ungraded.
namespace {

Report gradeShards(const std::vector<JunitCase>& tests) {
    GradeInput in;
    std::istringstream table(
        "id\tday\tpoints\tvisibility\ttests\ttitle\nmsw.index\tmsw\t8\tvisible\tmsw.index\tindex\n"
        "msw.empty\tmsw\t1\tvisible\tmsw.empty\tempty\n");
    in.gates = parseGates(table, "gates.tsv");
    in.tests = tests;
    return grade(in);
}

}  // namespace

TEST(ShardedGate, EveryShardPassingPassesTheGate) {
    const Report r = gradeShards({passed("submission.msw.index.shard1of3"), passed("submission.msw.index.shard2of3"),
                                  passed("submission.msw.index.shard3of3"), passed("submission.msw.empty")});
    const GateOutcome& g = gate(r, "msw.index");
    EXPECT_EQ(g.result, Result::Pass);
    EXPECT_EQ(g.tests, 3);
    EXPECT_EQ(g.earned, 8);
    EXPECT_EQ(gate(r, "msw.empty").tests, 1);  // not a shard of msw.index, nor msw.index one of its
    EXPECT_EQ(gate(r, "msw.builds").result, Result::Pass);
}

TEST(ShardedGate, OneFailingShardFailsTheGateWithItsMessage) {
    JunitCase bad = passed("submission.msw.index.shard2of3");
    bad.status = "fail";
    bad.hasFailure = true;
    bad.output = "GATE msw.index FAIL two_phase_n255: key 17 got 3, want 4\n";
    const Report r = gradeShards({passed("submission.msw.index.shard1of3"), bad, passed("submission.msw.index.shard3of3")});
    const GateOutcome& g = gate(r, "msw.index");
    EXPECT_EQ(g.result, Result::Fail);
    EXPECT_EQ(g.failed, 1);
    EXPECT_NE(g.message.find("key 17 got 3, want 4"), std::string::npos) << g.message;
}

TEST(ShardedGate, AShardThatNeverRanLeavesTheGateUngraded) {
    const Report r = gradeShards({passed("submission.msw.index.shard1of3"), passed("submission.msw.index.shard3of3")});
    const GateOutcome& g = gate(r, "msw.index");
    EXPECT_EQ(g.result, Result::NotRun);
    EXPECT_EQ(g.earned, 0);
    EXPECT_EQ(g.message, "shard 2 of 3 did not run: 2 of its tests ran");
}

TEST(ShardedGate, ShardsOfTwoSplitsAreResultsOfTwoBuilds) {
    const Report r = gradeShards({passed("submission.msw.index.shard1of2"), passed("submission.msw.index.shard2of2"),
                                  passed("submission.msw.index.shard1of3")});
    const GateOutcome& g = gate(r, "msw.index");
    EXPECT_EQ(g.result, Result::NotRun);
    EXPECT_NE(g.message.find("two ways"), std::string::npos) << g.message;
}

namespace {

JunitCase failed(const std::string& name, const std::string& message) {
    JunitCase t;
    t.name = name;
    t.status = "fail";
    t.hasFailure = true;
    t.failureMessage = "Failed";
    t.output = "GATE 38.distances FAIL " + message + "\n";
    return t;
}

// A class shrinks after every verdict is out (grade_class.sh's last pass):
// the rerun's smallest input joins a failure that failed again, and a rerun
// never turns a verdict either way.
TEST(ShrunkFailures, ARerunAddsTheSmallestInputAndNeverAVerdict) {
    std::vector<JunitCase> tests = {failed("s0001.a", "vertex 12 got 3, want 2"), passed("s0001.b"),
                                    failed("s0001.c", "vertex 40 got 1, want 0")};
    const std::vector<JunitCase> shrunk = {
        failed("s0001.a", "vertex 2 got 3, want 2; smallest failing input found: 3 vertices\ncounterexample {\"n\":3}"),
        failed("s0001.b", "a flaky failure"), passed("s0001.c")};
    takeShrunkFailures(tests, shrunk);
    EXPECT_NE(tests[0].rerunOutput.find("smallest failing input found: 3 vertices"), std::string::npos)
        << tests[0].rerunOutput;
    EXPECT_EQ(tests[0].output, "GATE 38.distances FAIL vertex 12 got 3, want 2\n") << "its verdict's own output";
    EXPECT_TRUE(tests[0].hasFailure);
    EXPECT_EQ(tests[1].status, "run");
    EXPECT_FALSE(tests[1].hasFailure) << "a pass turned into a failure";
    EXPECT_EQ(tests[1].output, passed("s0001.b").output);
    EXPECT_EQ(tests[1].rerunOutput, "");
    EXPECT_TRUE(tests[2].hasFailure) << "a failure turned into a pass";
    EXPECT_EQ(tests[2].rerunOutput, "");
}

}  // namespace
