// The day 34 suite: every 34.* gate on the course's 2048 x 2048 grid. The
// per-kernel gates run for the course's global kernel and for the tiled one
// (the submission's, in the submission suite). The same binary runs against
// the reference runner and the submission's (see CMakeLists).
#include <gtest/gtest.h>

#include <iostream>

#include "day34_cases.h"
#include "day34_gates.h"
#include "day34_reference.h"
#include "day34_report.h"
#include "harness/testing.h"
#include "harness/timing_stats.h"
#include "heat_constants.h"

namespace {

using namespace day34::cases;
using grading::testing::expectGate;
using grading::testing::runnerUnderTest;

std::string paramName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

class KernelCase : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override { GRADING_SKIP_WITHOUT_DEVICE(runnerUnderTest()); }
    std::string context(const std::string& what) const { return kernelName(GetParam()) + ", " + what; }
};

class Stencil : public KernelCase {};
class Ring : public KernelCase {};
class MaxPrinciple : public KernelCase {};
class Unstable : public KernelCase {};
class CopyPolicy : public KernelCase {};
class Timing : public KernelCase {};

const std::string kCheckRun = "4 steps at r = 0.24 on the 2048 x 2048 grid";
const std::string kStabilityRun = "400 steps at r = 0.24, 0.25, 0.26";

TEST_P(Stencil, FourStepsMatchTheDoubleReference) {
    const StepRun run = runStep(runnerUnderTest(), GetParam(), day34::kCheckSteps);
    expectGate(stencilGate(GetParam(), run), context(kCheckRun));
}

TEST_P(Ring, BothBuffersKeepTheBoundaryExactly) {
    const StepRun run = runStep(runnerUnderTest(), GetParam(), day34::kCheckSteps);
    expectGate(ringGate(GetParam(), run), context(kCheckRun + ", both ping-pong buffers"));
}

TEST_P(MaxPrinciple, HoldsAtOrUnderAQuarter) {
    const StabilityRun run = runStability(runnerUnderTest(), GetParam());
    expectGate(maxPrincipleGate(run), context(kStabilityRun));
}

TEST_P(Unstable, GrowsPastAQuarter) {
    const StabilityRun run = runStability(runnerUnderTest(), GetParam());
    expectGate(unstableGate(run), context(kStabilityRun));
}

// The spec runs the policies with the tiled kernel only.
TEST_P(CopyPolicy, FinalGridsAreBitIdentical) {
    const PolicyRun run = runPolicy(runnerUnderTest());
    expectGate(copyPolicyGate(run), context("1000 steps copied back never, every 100 steps, every step"));
}

TEST_P(Timing, EveryFigureIsPositive) {
    const TimingRun timing = runTiming(runnerUnderTest());
    const PolicyRun policy = runPolicy(runnerUnderTest());
    expectGate(timingGate(timing, policy), "one-step times of copyGrid, heatStepGlobal, heatStepTiled and the "
                                           "three 1000-step policy loops");
}

INSTANTIATE_TEST_SUITE_P(Day34, Stencil, ::testing::ValuesIn(kernels()), paramName);
INSTANTIATE_TEST_SUITE_P(Day34, Ring, ::testing::ValuesIn(kernels()), paramName);
INSTANTIATE_TEST_SUITE_P(Day34, MaxPrinciple, ::testing::ValuesIn(kernels()), paramName);
INSTANTIATE_TEST_SUITE_P(Day34, Unstable, ::testing::ValuesIn(kernels()), paramName);
INSTANTIATE_TEST_SUITE_P(Day34, CopyPolicy, ::testing::Values(std::string("tiled")), paramName);
INSTANTIATE_TEST_SUITE_P(Day34, Timing, ::testing::Values(std::string("tiled")), paramName);

// The course's three tables, the runner's tiled kernel in the tiled rows.
// Observations only: nothing here is gated, and a run that failed is shown
// as its message (the gates above report the failure itself).
TEST(Day34Report, CourseTables) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerUnderTest());
    const std::string runner = runnerUnderTest();
    const auto record = [](const std::string& key, double value) {
        ::testing::Test::RecordProperty(key, day34::formatValue(value));
    };

    std::cout << "\nGrid: " << day34::kN << " x " << day34::kN << " cells, 16 MiB a buffer, two on the device\n"
              << "Tile: " << day34::kTileX << " x " << day34::kTileY << " output from a " << day34::kSharedX << " x "
              << day34::kSharedY << " apron: " << day34::kTaps << " global reads per cell become "
              << day34::formatValue(static_cast<double>(day34::kSharedCells) / (day34::kTileX * day34::kTileY))
              << "\n\n";

    const TimingRun timing = runTiming(runner);
    if (timing.problem.empty()) {
        const double copyMs = grading::summarize(timing.copyMs).medianMs;
        const double globalMs = grading::summarize(timing.globalMs).medianMs;
        const double tiledMs = grading::summarize(timing.tiledMs).medianMs;
        std::cout << day34::oneStepTable({{"copyGrid, no stencil", copyMs},
                                          {"heatStepGlobal", globalMs},
                                          {"heatStepTiled", tiledMs}},
                                         day34::kCells, day34::kWarmupRuns, day34::kTimedRuns)
                  << "\n";
        record("copy_ms", copyMs);
        record("global_ms", globalMs);
        record("tiled_ms", tiledMs);
        record("copy_gbs", day34::bandwidthGBs(copyMs, day34::kCells));
        record("global_gbs", day34::bandwidthGBs(globalMs, day34::kCells));
        record("tiled_gbs", day34::bandwidthGBs(tiledMs, day34::kCells));
        if (globalMs > 0.0) record("global_pct_of_copy", 100.0 * copyMs / globalMs);
        if (tiledMs > 0.0) record("tiled_pct_of_copy", 100.0 * copyMs / tiledMs);
    } else {
        std::cout << "One step: no times: " << timing.problem << "\n\n";
    }

    const PolicyRun policy = runPolicy(runner);
    if (policy.problem.empty()) {
        std::vector<day34::PolicyRow> rows;
        for (size_t k = 0; k < policy.copyEvery.size(); ++k) {
            rows.push_back({policy.copyEvery[k], policy.loopMs[k]});
            record("loop_ms_every_" + std::to_string(policy.copyEvery[k]), policy.loopMs[k]);
            if (policy.loopMs[0] > 0.0) {
                record("loop_ratio_every_" + std::to_string(policy.copyEvery[k]), policy.loopMs[k] / policy.loopMs[0]);
            }
        }
        std::cout << day34::policyTable(rows, policy.steps, day34::kCells) << "\n";
    } else {
        std::cout << "Copy policies: no times: " << policy.problem << "\n\n";
    }

    const StabilityRun stability = runStability(runner, "tiled");
    if (stability.problem.empty()) {
        std::vector<day34::StabilityRow> rows;
        for (size_t k = 0; k < stability.r.size(); ++k) {
            rows.push_back({stability.r[k], stability.maxAbs[k], stability.nonFinite[k] == 0});
            const std::string r = std::to_string(static_cast<int>(stability.r[k] * 100.0f + 0.5f));
            record("max_abs_r0_" + r, stability.maxAbs[k]);
            record("nonfinite_r0_" + r, static_cast<double>(stability.nonFinite[k]));
        }
        std::cout << day34::stabilityTable(rows, stability.steps, initialMax()) << std::endl;
    } else {
        std::cout << "Stability: no figures: " << stability.problem << std::endl;
    }
}

}  // namespace
