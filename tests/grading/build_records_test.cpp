// The records a submission's failed build steps leave (fixtures/build_records:
// day38 does not compile, day34's file is missing, msw's include check
// refused a solution, day52's runner does not link) and the <day>.builds
// reasons made of them. build_steps.sh has the real steps write them.
#include <gtest/gtest.h>

#include "fixtures.h"
#include "grading/build_records.h"
#include "grading/junit.h"

namespace {

using namespace grading::report;

const std::string kHeader = "day\tstep\ttarget\tfile\tstatus\terror\n";

std::string firstLineOf(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string parseError(const std::string& text) {
    try {
        parseBuildRecords(text, "r.tsv");
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(BuildRecords, EveryRecordUnderTheFolderInPathOrder) {
    const std::vector<BuildRecord> records = loadBuildRecords(fixtures::path("build_records"));
    ASSERT_EQ(records.size(), 4u);
    EXPECT_EQ(records[0].day, "day34");
    EXPECT_EQ(records[1].day, "day38");
    EXPECT_EQ(records[1].step, "compile");
    EXPECT_EQ(records[1].target, "day38_submission_edge_mapping");
    EXPECT_EQ(records[1].file, "/subs/alice/day38/edge_mapping.cu");
    EXPECT_EQ(records[1].status, "2");
    EXPECT_EQ(records[1].error, "/subs/alice/day38/edge_mapping.cu(63): error: expected a declaration");
    EXPECT_EQ(records[2].day, "day52");
    EXPECT_EQ(records[3].day, "msw");
}

TEST(BuildRecords, AFailingCompileGivesItsFirstErrorThenTheStep) {
    const auto failures = buildFailures(loadBuildRecords(fixtures::path("build_records")));
    ASSERT_TRUE(failures.count("day38"));
    EXPECT_EQ(failures.at("day38").reason,
              "/subs/alice/day38/edge_mapping.cu(63): error: expected a declaration\n"
              "(compiling /subs/alice/day38/edge_mapping.cu failed: exit status 2)");
    EXPECT_EQ(failures.at("day38").summary, "does not compile");
}

TEST(BuildRecords, AMissingFileIsNamed) {
    const auto failures = buildFailures(loadBuildRecords(fixtures::path("build_records")));
    ASSERT_TRUE(failures.count("day34"));
    EXPECT_EQ(failures.at("day34").reason, "the submission file /subs/alice/day34/heat_tiled.cu is missing");
    EXPECT_EQ(failures.at("day34").summary, "the submission file is missing");
}

TEST(BuildRecords, TheIncludeCheckSaysWhatWasIncluded) {
    const auto failures = buildFailures(loadBuildRecords(fixtures::path("build_records")));
    ASSERT_TRUE(failures.count("msw"));
    EXPECT_EQ(firstLineOf(failures.at("msw").reason),
              "/subs/alice/msw/find_mismatch.cpp: error: it includes /src/reference/msw/solution/find_mismatch.cpp, "
              "which the course does not provide: a submission compiles against the course's headers only");
    EXPECT_EQ(failures.at("msw").summary, "does not compile");
}

TEST(BuildRecords, ALinkFailureNamesTheRunner) {
    const auto failures = buildFailures(loadBuildRecords(fixtures::path("build_records")));
    ASSERT_TRUE(failures.count("day52"));
    EXPECT_EQ(failures.at("day52").reason,
              "kernels.cu:(.text+0x0): multiple definition of `launchFork(cudaStream_t)'; "
              "streams.cu.o:(.text+0x0): first defined here\n"
              "(linking day52_runner_submission failed: exit status 1)");
    EXPECT_EQ(failures.at("day52").summary, "does not link");
}

TEST(BuildRecords, TheRefusedIncludeLeadsTheCompileItStopped) {
    const auto failures = buildFailures(parseBuildRecords(
        kHeader + "msw\tcompile\tmsw_s0001_f\t/c/f.cpp\t1\tf.cpp:3:1: error: x\n"
                  "msw\tincludes\tmsw_s0001_f\t/c/f.cpp\t1\t/c/f.cpp: error: it includes /sol.cpp\n",
        "r.tsv"));
    EXPECT_EQ(failures.at("msw").reason,
              "/c/f.cpp: error: it includes /sol.cpp\n(the include check of /c/f.cpp failed: exit status 1)\n"
              "f.cpp:3:1: error: x\n(compiling /c/f.cpp failed: exit status 1)");
}

TEST(BuildRecords, AStepThatPrintedNoErrorIsStillAFailure) {
    const auto failures =
        buildFailures(parseBuildRecords(kHeader + "day38\tcompile\tday38_s0002_edge\t/c/e.cu\t139\t\n", "r.tsv"));
    EXPECT_EQ(firstLineOf(failures.at("day38").reason), "compiling /c/e.cu failed: exit status 139");
}

TEST(BuildRecords, AFailureOutsideTheSubmissionsStepsSaysNotBuilt) {
    const auto failures = buildFailures(parseBuildRecords(
        kHeader + "day38\tbuild\tday38_runner_submission\t\t1\tday38_runner.cu(12): error: bad\n", "r.tsv"));
    EXPECT_EQ(failures.at("day38").summary, "not built");
    EXPECT_EQ(failures.at("day38").reason,
              "day38_runner.cu(12): error: bad\n"
              "(building day38_runner_submission (outside the submission's own steps) failed: exit status 1)");
}

TEST(BuildRecords, NoRecordsNoFailures) {
    EXPECT_TRUE(buildFailures({}).empty());
    EXPECT_TRUE(parseBuildRecords(kHeader, "r.tsv").empty());
}

TEST(BuildRecords, MalformedRecordsNameTheFileAndLine) {
    EXPECT_EQ(parseError("day\tstep\ttarget\tfile\tstatus\n"),
              "r.tsv:1: the header lacks the column 'error' (want tab-separated: day step target file status error)");
    EXPECT_EQ(parseError(kHeader + "day38\tcompile\tt\n"), "r.tsv:2: expected 6 tab-separated fields, got 3");
    EXPECT_EQ(parseError(kHeader + "day38\tassemble\tt\tf\t1\te\n"),
              "r.tsv:2: unknown step 'assemble' (want missing, includes, compile, symbols, link or build)");
    EXPECT_EQ(parseError(kHeader + "\tcompile\tt\tf\t1\te\n"), "r.tsv:2: the record names no day");
    EXPECT_EQ(parseError(""), "r.tsv: an empty build record (no header line)");
}

TEST(BuildRecords, NoFolderIsAnError) {
    try {
        loadBuildRecords(fixtures::path("no_such_records"));
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), fixtures::path("no_such_records") +
                                             ": no build records folder (the build makes one for every submission it "
                                             "builds)");
    }
}

}  // namespace
