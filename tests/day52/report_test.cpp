// Day 52's report asks the runners no more than it must: its timing table
// is 52.overlap's own checked timing calls, read back after the gate in one
// process, and the course's serial version is asked of the course runner
// with its answer shared, so a second student's report reads it back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "harness/day.h"
#include "report_after_gate.h"

namespace {

// The stand-in answers every call with a record the day cannot read: the
// gate stops at its first timing call, the diamond's, and the report prints
// no timings and stops at the broken order.
TEST(Day52Report, ReadsBackTheGatesTimingAndTheCourseSerialOnce) {
    const grading::Day day = grading::declareDay();
    const std::string course = ::testing::TempDir() + "day52_course_runner_" + std::to_string(getpid());
    const std::string other = ::testing::TempDir() + "day52_other_student_" + std::to_string(getpid());
    std::filesystem::copy_file(FAKE_RUNNER, course, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(FAKE_RUNNER, other, std::filesystem::copy_options::overwrite_existing);

    EXPECT_EQ(reportCallsReadBack(day, "", 51, FAKE_RUNNER, course), 0);
    // The diamond's timing call, 52.overlap's.
    EXPECT_EQ(reportCallsReadBack(day, "52.overlap", 52, FAKE_RUNNER, course), 1);
    // A second student on the first one's seed: the course's serial version.
    EXPECT_EQ(reportCallsReadBack(day, "", 51, other, course), 1);

    std::filesystem::remove(course);
    std::filesystem::remove(other);
}

}  // namespace
