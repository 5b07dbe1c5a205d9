// ctest's console log: what the JUnit file cannot say.
#include <gtest/gtest.h>

#include "fixtures.h"
#include "grading/logs.h"

namespace {

using grading::report::abnormalEnds;

TEST(CtestLog, TimeoutsAndCrashesByTestName) {
    const auto ends = abnormalEnds(fixtures::text("ctest_timeout.log"));
    ASSERT_EQ(ends.size(), 2u);
    EXPECT_EQ(ends.at("submission.Day38/Timing.EveryFigureIsPositive/0"), "Timeout after 300.01 s");
    EXPECT_EQ(ends.at("crash"), "Exception: SegFault after 0.00 s");
}

}  // namespace
