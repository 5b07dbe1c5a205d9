// The course's policy applied to a day's declarations (harness/day.h).
#include <gtest/gtest.h>

#include "harness/day.h"

namespace {

grading::Day twoGates() {
    grading::Day day("dtest");
    day.gate(grading::GateSpec("dtest.right").points(3), {});
    day.gate(grading::GateSpec("dtest.speed").points(0).scored(true), {});
    return day;
}

TEST(Policy, SetsPointsVisibilityAndRampOfTheDaysGatesOnly) {
    grading::Day day = twoGates();
    const auto applied = grading::applyPolicy(day, R"({"gates": {
        "dtest.right": {"points": 5, "visibility": "hidden", "about": "a note"},
        "dtest.speed": {"points": 2, "ramp": {"full_at": 1.5, "zero_at": 4}},
        "other.gate": {"points": 9}}})");
    ASSERT_TRUE(applied.ok()) << applied.error();
    EXPECT_EQ(day.find("dtest.right")->spec.points(), 5);
    EXPECT_EQ(day.find("dtest.right")->spec.visibility(), "hidden");
    EXPECT_EQ(day.find("dtest.speed")->spec.points(), 2);
    EXPECT_EQ(day.find("dtest.speed")->spec.visibility(), "visible");  // as declared
    const grading::SpeedRamp ramp = grading::speedRampFor("dtest.speed", {});
    EXPECT_DOUBLE_EQ(ramp.fullAt, 1.5);
    EXPECT_DOUBLE_EQ(ramp.zeroAt, 4.0);
    EXPECT_DOUBLE_EQ(grading::speedRampFor("dtest.right", {1.2, 10.0}).fullAt, 1.2);  // none set: as declared
}

TEST(Policy, WhatIsNotTheCheckedShapeIsAnError) {
    grading::Day day = twoGates();
    EXPECT_FALSE(grading::applyPolicy(day, "not json").ok());
    EXPECT_FALSE(grading::applyPolicy(day, R"({"gates": {"dtest.right": {"points": -1}}})").ok());
    EXPECT_FALSE(grading::applyPolicy(day, R"({"gates": {"dtest.speed": {"ramp": {"full_at": 2}}}})").ok());
    EXPECT_TRUE(grading::applyPolicy(day, R"({"inputs": {}})").ok());  // no gates: nothing to change
    EXPECT_EQ(day.find("dtest.right")->spec.points(), 3);
}

}  // namespace
