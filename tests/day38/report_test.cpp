// Day 38's report asks the runners no more than it must: the exercise's
// mapping is 38.timing's own calls, read back after the gate in one
// process; the course's mappings are asked of the course runner with their
// answers shared, so a second student's report reads them back.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "harness/day.h"
#include "report_after_gate.h"

namespace {

// The stand-in answers every call with a record the day cannot read: each
// search fails and is asked again strictly, and every mapping leaves the
// report's turns after its first.
TEST(Day38Report, ReadsBackTheCallsTimingMadeAndTheCourseMappingsOnce) {
    const grading::Day day = grading::declareDay();
    EXPECT_EQ(reportCallsReadBack(day, "", 21), 0);
    // The edge mapping's search and its strict retry, both 38.timing's.
    EXPECT_EQ(reportCallsReadBack(day, "38.timing", 22), 2);

    // Two students, one course runner: the second reads back the course's
    // thread and warp searches (each with its strict retry) and walks.
    const std::string course = ::testing::TempDir() + "day38_course_runner_" + std::to_string(getpid());
    const std::string other = ::testing::TempDir() + "day38_other_student_" + std::to_string(getpid());
    std::filesystem::copy_file(FAKE_RUNNER, course, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(FAKE_RUNNER, other, std::filesystem::copy_options::overwrite_existing);
    EXPECT_EQ(reportCallsReadBack(day, "", 23, FAKE_RUNNER, course), 0);
    EXPECT_EQ(reportCallsReadBack(day, "", 23, other, course), 6);
    std::filesystem::remove(course);
    std::filesystem::remove(other);
}

}  // namespace
