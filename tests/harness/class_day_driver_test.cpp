// The driver's class mode (a class's <student>.<day> test) over a day of
// host cases (class_day_driver.cpp): a gate that can no longer pass, its own
// case or one of a gate it requires having failed, runs none of its cases
// that hold the GPU exclusively; every other case runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/process.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;

grading::ProcessResult runClassDay() {
    grading::ProcessOptions options;
    options.environment = {{"GRADING_SANDBOX", "off"}, {"GRADING_GPU_SLOTS", "0"}, {"GRADING_SEED", "7"}};
    return grading::runProcess({CLASS_DAY_DRIVER, "--suite", "submission", "--class-day", "--runner", FAKE_RUNNER},
                               options);
}

TEST(ClassDayDriver, AGateThatCanNoLongerPassRunsNoExclusiveCase) {
    const grading::ProcessResult p = runClassDay();
    ASSERT_TRUE(p.started) << p.startError;
    EXPECT_TRUE(p.exitedWith(1)) << "t.values fails by design\n" << p.out << p.err;
    for (const char* ran : {"t.values.failing_small", "t.layout.small", "t.layout.deep", "t.order.small",
                            "t.ring.timed"}) {
        EXPECT_THAT(p.out, HasSubstr(std::string("CASE RAN ") + ran + "\n")) << p.out;
    }
    for (const char* skipped : {"t.values.deep", "t.order.deep", "t.speed.timed"}) {
        EXPECT_THAT(p.out, Not(HasSubstr(std::string("CASE RAN ") + skipped + "\n"))) << p.out;
    }
    const std::string skip = "not run, the verdict being decided: ";
    EXPECT_THAT(p.out, HasSubstr(skip + "t.values failed in this test"));
    EXPECT_THAT(p.out, HasSubstr(skip + "requires t.values, which failed in this test"));
    EXPECT_THAT(p.out, HasSubstr(skip + "requires t.order, which requires t.values, which failed in this test"));
}

}  // namespace
