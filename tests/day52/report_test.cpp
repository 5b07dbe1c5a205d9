// Day 52's report asks the runners no more than it must: its timing table
// is 52.overlap's own checked timing calls, read back after the gate in one
// process, and the course's serial version is asked of the course runner
// with its answer shared, so a second student's report reads it back. The
// machine the gate is judged on is kept for a class, not probed by each
// student.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cases.h"
#include "harness/answer_cache.h"
#include "harness/day.h"
#include "report_after_gate.h"
#include "scoped_env.h"

namespace {

// The stand-in answers every call with a record the day cannot read: the
// gate stops at its first timing call, the diamond's, and the report prints
// no timings and stops at the broken order.
TEST(Day52Report, ReadsBackTheGatesTimingAndTheCourseSerialOnce) {
    const grading::Day day = grading::declareDay();
    const StandInCopy course("day52_course_runner"), other("day52_other_student");
    const std::string stop = "the course's broken order did not run";

    EXPECT_EQ(reportCallsReadBack(day, "", 51, FAKE_RUNNER, course.path(), stop), 0);
    // The diamond's timing call, 52.overlap's.
    EXPECT_EQ(reportCallsReadBack(day, "52.overlap", 52, FAKE_RUNNER, course.path(), stop), 1);
    // A second student on the first one's seed: the course's serial version.
    EXPECT_EQ(reportCallsReadBack(day, "", 51, other.path(), course.path(), stop), 1);
}

// A class's instructor.day52 keeps the course runner's machine with the
// serial figures; a student's test reads it back for its GPU and starts no
// course runner. The student's course runner here does not exist: a probe
// would find no SMs.
TEST(Day52ClassBaseline, TheCourseMachineIsKeptOnceAndReadBackWithoutAProbe) {
    using day52::cases::courseMachine;
    using day52::cases::serialBaselineKey;
    grading::setSandboxPolicy(grading::SandboxPolicy::Off);  // the stand-in is the harness's own
    const grading::TempDir answers;
    const ScopedEnv env({{"GRADING_GPU_SLOTS", "0"},
                         {"GRADING_ANSWER_CACHE", answers.path().c_str()},
                         {"CUDA_VISIBLE_DEVICES", "0"}});
    const auto context = [](const std::string& course, uint64_t seed, grading::InstructorTiming timing) {
        grading::CaseContext ctx{"student", seed, 10.0, true, "instructor", course};
        ctx.instructorTiming = timing;
        return ctx;
    };

    const StandInCopy course("day52_course_for_a_class");
    const grading::CaseContext instructor = context(course.path(), 61, grading::InstructorTiming::MeasureOnce);
    const day52::cases::CourseMachine probed = courseMachine(instructor);
    EXPECT_EQ(probed.smCount, 4);
    EXPECT_EQ(probed.device, "fake device");
    std::vector<int> sms;
    ASSERT_TRUE(grading::loadValues(serialBaselineKey(instructor, "sm_count"), sms));
    EXPECT_EQ(sms, std::vector<int>{4});
    // Timed in turn (a suite), nothing is kept for anyone else.
    const StandInCopy suiteCourse("day52_course_for_a_suite");
    const grading::CaseContext suite = context(suiteCourse.path(), 62, grading::InstructorTiming::Interleaved);
    EXPECT_EQ(courseMachine(suite).smCount, 4);
    EXPECT_FALSE(grading::loadValues(serialBaselineKey(suite, "sm_count"), sms));

    const std::string absent = ::testing::TempDir() + "day52_no_course_runner_here";
    const grading::CaseContext student = context(absent, 63, grading::InstructorTiming::ReadBackOnce);
    grading::keepValues(serialBaselineKey(student, "sm_count"), std::vector<int>{132});
    const std::string h200 = "NVIDIA H200";
    grading::keepValues(serialBaselineKey(student, "device"), std::vector<char>(h200.begin(), h200.end()));
    const day52::cases::CourseMachine kept = courseMachine(student);
    EXPECT_EQ(kept.smCount, 132);
    EXPECT_EQ(kept.device, h200);
    // Kept for GPU 0, not for GPU 1: there the test probes, and finds nothing.
    const ScopedEnv otherGpu({{"CUDA_VISIBLE_DEVICES", "1"}});
    EXPECT_EQ(courseMachine(student).smCount, 0);
}

}  // namespace
