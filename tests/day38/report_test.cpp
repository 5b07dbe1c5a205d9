// Day 38's report asks the runners no more than it must: the exercise's
// mapping is 38.timing's own calls, read back after the gate in one
// process; the course's mappings are asked of the course runner with their
// answers shared, so a second student's report reads them back.
#include <gtest/gtest.h>

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
    const StandInCopy course("day38_course_runner"), other("day38_other_student");
    EXPECT_EQ(reportCallsReadBack(day, "", 23, FAKE_RUNNER, course.path()), 0);
    EXPECT_EQ(reportCallsReadBack(day, "", 23, other.path(), course.path()), 6);
}

}  // namespace
