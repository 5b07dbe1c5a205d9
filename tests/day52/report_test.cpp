// Day 52's report asks the runners no more than it must: its timing table
// is 52.overlap's own checked timing calls, read back after the gate in one
// process, and the course's serial version is asked of the course runner
// with its answer shared, so a second student's report reads it back.
#include <gtest/gtest.h>

#include <string>

#include "harness/day.h"
#include "report_after_gate.h"

namespace {

// The stand-in answers every call with a record the day cannot read: the
// gate stops at its first timing call, the diamond's, and the report prints
// no timings and stops at the broken order.
TEST(Day52Report, ReadsBackTheGatesTimingAndTheCourseSerialOnce) {
    const grading::Day day = grading::declareDay();
    const StandInCopy course("day52_course_runner"), other("day52_other_student");

    EXPECT_EQ(reportCallsReadBack(day, "", 51, FAKE_RUNNER, course.path()), 0);
    // The diamond's timing call, 52.overlap's.
    EXPECT_EQ(reportCallsReadBack(day, "52.overlap", 52, FAKE_RUNNER, course.path()), 1);
    // A second student on the first one's seed: the course's serial version.
    EXPECT_EQ(reportCallsReadBack(day, "", 51, other.path(), course.path()), 1);
}

}  // namespace
