// The build log (real ninja/nvcc output, fixtures/build_day38_error.log) and
// ctest's console log: what the JUnit file cannot say.
#include <gtest/gtest.h>

#include "fixtures.h"
#include "grading/logs.h"

namespace {

using grading::report::abnormalEnds;
using grading::report::buildFailures;

const std::vector<std::string> kDays = {"day34", "day38", "day52", "msw"};

TEST(BuildLog, CompileFailureGivesTheFirstErrorLines) {
    const auto failures = buildFailures(fixtures::text("build_day38_error.log"), kDays);
    ASSERT_TRUE(failures.count("day38"));
    EXPECT_EQ(failures.at("day38"),
              "/subs/alice/day38/edge_mapping.cu(63): error: expected a declaration\n"
              "1 error detected in the compilation of \"/subs/alice/day38/edge_mapping.cu\".\n"
              "(building harness/day38/CMakeFiles/day38_edge_submission.dir/subs/alice/day38/edge_mapping.cu.o failed)");
    EXPECT_FALSE(failures.count("msw"));
}

TEST(BuildLog, MissingSubmissionFileIsNamed) {
    const auto failures = buildFailures(fixtures::text("build_day38_error.log"), kDays);
    ASSERT_TRUE(failures.count("day34"));
    EXPECT_EQ(failures.at("day34"), "the submission file /subs/alice/day34/heat_tiled.cu is missing");
}

TEST(BuildLog, ACompileErrorOutranksAMissingFile) {
    const auto failures = buildFailures(fixtures::text("build_day38_error.log"), kDays);
    ASSERT_TRUE(failures.count("day52"));
    EXPECT_EQ(failures.at("day52").substr(0, failures.at("day52").find('\n')),
              "/src/grading/harness/day52/day52_runner.cu(296): error: name followed by \"::\" must be a class or namespace name");
}

TEST(BuildLog, GccErrorsStopAtThreeAndLinkErrorsCount) {
    const auto failures = buildFailures(fixtures::text("build_gcc_link.log"), kDays);
    ASSERT_TRUE(failures.count("msw"));
    EXPECT_EQ(failures.at("msw"),
              "/subs/alice/msw/find_mismatch.cpp:12:5: error: 'foo' was not declared in this scope\n"
              "/subs/alice/msw/find_mismatch.cpp:14:1: error: no return statement in function returning non-void [-Werror=return-type]\n"
              "/subs/alice/msw/find_mismatch.cpp:20:9: error: expected ';' before '}' token\n"
              "(building harness/msw/CMakeFiles/msw_find_submission.dir/subs/alice/msw/find_mismatch.cpp.o failed)");
    ASSERT_TRUE(failures.count("day34"));
    EXPECT_EQ(failures.at("day34"),
              "heat_tiled.cu:(.text+0x1c): undefined reference to `launchTiled(float const*, float*, int)'\n"
              "collect2: error: ld returned 1 exit status\n"
              "(building runners/day34_runner_submission failed)");
    EXPECT_FALSE(failures.count("day38"));
}

TEST(BuildLog, FailureUnderNoDayIsKeptApart) {
    const auto failures = buildFailures(fixtures::text("build_gcc_link.log"), kDays);
    ASSERT_TRUE(failures.count(""));
    EXPECT_EQ(failures.at(""),
              "/src/grading/harness/core/src/graph.cpp:40:1: error: 'Graph' does not name a type\n"
              "(building harness/CMakeFiles/grading_core.dir/core/src/graph.cpp.o failed)");
}

TEST(BuildLog, ConfigureFailureFailsEveryDay) {
    const auto failures = buildFailures(fixtures::text("configure_error.log"), kDays);
    ASSERT_EQ(failures.size(), kDays.size());
    EXPECT_EQ(failures.at("msw"),
              "configuring the build failed: CMake Error at CMakeLists.txt:22 (find_package): Could not find a "
              "package configuration file provided by \"CUDAToolkit\" with any of the following names: "
              "CUDAToolkitConfig.cmake");
}

TEST(BuildLog, CleanBuildHasNoFailures) {
    EXPECT_TRUE(buildFailures("[1/2] Building CXX object a.o\n[2/2] Linking CXX executable runners/day38_runner_submission\n",
                              kDays)
                    .empty());
}

TEST(CtestLog, TimeoutsAndCrashesByTestName) {
    const auto ends = abnormalEnds(fixtures::text("ctest_timeout.log"));
    ASSERT_EQ(ends.size(), 2u);
    EXPECT_EQ(ends.at("submission.Day38/Timing.EveryFigureIsPositive/0"), "Timeout after 300.01 s");
    EXPECT_EQ(ends.at("crash"), "Exception: SegFault after 0.00 s");
}

}  // namespace
