#pragma once
// Gate verdicts from ctest's JUnit output: points, the first failure, per-day
// and overall totals, and the forms they are handed out in (the printed
// table, Gradescope's results.json, the class summary).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "grading/build_records.h"
#include "grading/gates.h"
#include "grading/junit.h"
#include "grading/precheck.h"

namespace grading::report {

// NotGraded: a gate it requires did not pass, so this one earns nothing
// whatever its own tests say (a vacuous pass on code that computes nothing).
// NotRunHere: its tests were skipped because this machine cannot run them
// (no GPU, no sandbox); NotRun: no test of it ran at all, or a shard is missing.
enum class Result { Pass, Fail, NotRunHere, NotRun, NotGraded };
const char* resultName(Result r);  // PASS, FAIL, NOT RUN (both kinds), NOT GRADED

struct GateOutcome {
    Gate gate;
    bool buildsGate = false;  // the 0-point "<day>.builds"
    Result result = Result::NotRun;
    int earned = 0;
    std::string message;                // the first failure, the skip or not-run reason; "" on a pass
    std::string notRunHere;             // why this machine could not run its tests (Result::NotRunHere)
    std::vector<std::string> failures;  // every failing test's reason, in JUnit order
    int tests = 0, passed = 0, failed = 0, skipped = 0;
    // The first failing test's "counterexample <json>" line (harness/shrink.h's
    // recordPicture): a shrunk input to draw; "" when none.
    std::string counterexample;
};

struct DayTotal {
    std::string day;
    int earned = 0, max = 0, gatesPassed = 0, gates = 0;
};

struct Report {
    std::string prefix;
    // What was graded: submission folder, file hashes, seed, GPU, harness
    // commit; printed above the table and kept in results.json.
    std::vector<std::pair<std::string, std::string>> header;
    std::vector<Finding> flags;  // flagged for review (precheck.h)
    std::vector<GateOutcome> gates;  // per day: "<day>.builds", then the day's gates
    std::vector<DayTotal> days;
    int earned = 0, max = 0;
    // Each *Report.* test of the selected days: its name (and how it ended,
    // unless it passed) -> its tables.
    std::vector<std::pair<std::string, std::string>> observations;

    bool allPassed() const;
    // No gate failed, and some could not run on this machine (no GPU, no
    // sandbox): nothing was graded there, which is no verdict on the code.
    bool couldNotGradeHere() const;
};

// Why gates read NOT RUN on this machine, each reason once.
std::vector<std::string> notRunHereReasons(const Report& report);

struct GradeInput {
    std::vector<Gate> gates;
    std::vector<JunitCase> tests;
    std::string prefix = "submission.";
    std::vector<std::string> days;          // empty: every day in gates
    std::vector<BuildRecord> buildRecords;  // the submission's failed build steps (build_records.h)
    std::optional<std::string> ctestLog;    // ctest --output-log
    std::vector<std::pair<std::string, std::string>> header;  // key, value
    std::vector<Finding> flags;  // precheck findings: shown for review, never scored
};

Report grade(const GradeInput& input);

// One case of a class's day test as the test's own verdict lines record
// it: from "<token> RUN <name>" to "<token> OK|FAILED|SKIPPED <name>", or
// to the output's end where nothing ended it (the process died in it, or
// ctest stopped it). The token is the one the test printed before any
// other line ("verdict token: <token>"), drawn as its process started: the
// runners, whose words its messages quote, never see it, so no line of
// theirs reads as a verdict. A class's day test holds several gates
// (Gate::classTests): each case a block "<gate>.<case>", each of the day's
// observations a block "<day>.<name>".
struct CaseBlock {
    enum class End { Ok, Failed, Skipped, Unfinished };
    std::string name;
    End end = End::Unfinished;
    std::string text;  // the lines between, each ending in '\n'
};
std::vector<CaseBlock> classTestCases(const std::string& output);

// A class shrinks its students' failures after every verdict is out
// (grade_class.sh): their tests run again with shrinking on. Each test of
// `tests` that failed and failed again in `shrunk` takes the rerun's
// message and output as its rerunOutput, which its failures' messages come
// from (the smallest failing input); its verdicts stay its own output's, so
// a rerun can add a counterexample and never a verdict.
void takeShrunkFailures(std::vector<JunitCase>& tests, const std::vector<JunitCase>& shrunk);

// The header lines, then gate | result | points | first failure, then
// per-day and overall totals. Course gates (reference checks) appear only
// for the "reference." prefix.
std::string formatTable(const Report& report);
// "score: 27/43 points (<day> 11/11, <day> 5/11)": one line for progress output.
std::string scoreLine(const Report& report);
// The observation tables of the prefix's *Report.* tests, without gtest's chatter.
std::string formatObservations(const Report& report);
// Gradescope's results.json; `output` is shown above the tests.
std::string resultsJson(const Report& report, const std::string& output);

// The class table's row for one student: a header line and the row, tab
// separated: student, one cell per gate (points earned; "not run" where this
// machine could not run it, "-" where nothing ran; builds gates "ok", "FAIL"
// or "-"), total, max, and the lines flagged for review (never points).
std::string summaryRow(const Report& report, const std::string& student);

struct ClassTable {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
};
// Rows from several summaryRow files (columns in order of first appearance,
// a student's missing cell left blank); throws InputError on a file without
// its header.
ClassTable mergeSummaryRows(const std::vector<std::pair<std::string, std::string>>& sourcesAndTexts);
std::string toCsv(const ClassTable& table);
std::string toMarkdown(const ClassTable& table);

}  // namespace grading::report
