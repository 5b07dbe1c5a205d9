// The day 34 report's arithmetic: bandwidth counting one read and one write
// per cell, GiB copied to the host per policy, and the course's columns.
#include <gtest/gtest.h>

#include <string>

#include "harness/day.h"
#include "heat_constants.h"
#include "report.h"
#include "report_after_gate.h"

namespace {

TEST(Day34ReportText, Arithmetic) {
    // One read and one write of 2048^2 floats in 1 ms: 33.554432 GB/s.
    EXPECT_NEAR(day34::bandwidthGBs(1.0, day34::kCells), 33.554432, 1e-9);
    EXPECT_EQ(day34::bandwidthGBs(0.0, day34::kCells), 0.0);
    // 16 MiB a copy: 10 copies are 160 MiB, 1000 are 15.625 GiB.
    EXPECT_DOUBLE_EQ(day34::gibToHost(0, 1000, day34::kCells), 0.0);
    EXPECT_DOUBLE_EQ(day34::gibToHost(100, 1000, day34::kCells), 0.15625);
    EXPECT_DOUBLE_EQ(day34::gibToHost(1, 1000, day34::kCells), 15.625);
    EXPECT_EQ(day34::policyLabel(0), "never copied back");
    EXPECT_EQ(day34::policyLabel(100), "copied back every 100 steps");
    EXPECT_EQ(day34::policyLabel(1), "copied back every step");
}

TEST(Day34ReportText, TablesHoldTheCourseColumns) {
    const std::string one = day34::oneStepTable({{"copyGrid, no stencil", 0.02}, {"heatStepGlobal", 0.025}},
                                                day34::kCells, 3, 10);
    EXPECT_NE(one.find("% of copy"), std::string::npos) << one;
    EXPECT_NE(one.find("80.0"), std::string::npos) << one;  // 0.02 / 0.025
    const std::string policy = day34::policyTable({{0, 10.0}, {100, 15.0}, {1, 1000.0}}, 1000, day34::kCells);
    EXPECT_NE(policy.find("copied back every step"), std::string::npos) << policy;
    EXPECT_NE(policy.find("100.0x"), std::string::npos) << policy;
    EXPECT_NE(policy.find("15.6"), std::string::npos) << policy;  // GiB to host
    const std::string stability = day34::stabilityTable({{0.26, 3.5e12, true}}, 400, 1.0);
    EXPECT_NE(stability.find("-0.040"), std::string::npos) << stability;  // 1 - 4r
    EXPECT_NE(stability.find("1.080"), std::string::npos) << stability;   // |1 - 8r|
    EXPECT_NE(stability.find("yes"), std::string::npos) << stability;
}

// The report's step table is 34.timing's own one-step call: after the gate,
// in one process, it is read back, not asked again. The stand-in's answer
// stops the gate at that call, so its loop call is the report's own; the
// report alone reads back nothing.
TEST(Day34Report, ReadsBackTheCallThatTimingMade) {
    const grading::Day day = grading::declareDay();
    EXPECT_EQ(reportCallsReadBack(day, "", 11), 0);
    EXPECT_EQ(reportCallsReadBack(day, "34.timing", 12), 1);
}

}  // namespace
