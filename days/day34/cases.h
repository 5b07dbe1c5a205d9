#pragma once
// What the day 34 suites grade on: one runner call per question asked, and
// the gates applied to what came back (a runner that failed fails the gate
// with its own message). Shared by the reference/submission suite and the
// planted-bug suite.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/gate.h"
#include "harness/runner_client.h"

namespace day34::cases {

std::vector<std::string> kernels();                  // global, tiled
std::string kernelName(const std::string& kernel);   // heatStepGlobal, heatStepTiled

// The course's initial grid and the double reference after kCheckSteps steps
// at kStableR, each computed once per process.
const std::vector<float>& initialGrid();
const std::vector<double>& checkReference();
float initialMax();

struct StepRun {
    grading::RunnerOutcome outcome;
    std::string problem;  // the runner's failure or a missing field; empty when usable
    std::vector<float> grid;      // after `steps` steps
    std::vector<float> previous;  // the other buffer: after steps - 1
    int steps = 0;
};
StepRun runStep(const std::string& runner, const std::string& kernel, int steps);

struct PolicyRun {
    grading::RunnerOutcome outcome;
    std::string problem;
    std::vector<int> copyEvery;                // 0, 100, 1
    std::vector<float> loopMs;                 // parallel to copyEvery
    std::vector<std::vector<float>> finals;    // parallel to copyEvery
    int steps = 0;
};
PolicyRun runPolicy(const std::string& runner);

struct StabilityRun {
    grading::RunnerOutcome outcome;
    std::string problem;
    std::vector<float> r;
    std::vector<float> maxAbs;
    std::vector<int64_t> nonFinite;
    int steps = 0;
};
StabilityRun runStability(const std::string& runner, const std::string& kernel);

struct TimingRun {
    grading::RunnerOutcome outcome;
    std::string problem;
    std::vector<float> copyMs, globalMs, tiledMs;  // one sample per timed run
};
TimingRun runTiming(const std::string& runner);

// ---- the gates on a run (kernel is "global" or "tiled")
grading::GateResult stencilGate(const std::string& kernel, const StepRun& run);
// Both buffers: the newest grid, then the previous one.
grading::GateResult ringGate(const std::string& kernel, const StepRun& run);
// Every copied policy against the never-copied one, in order.
grading::GateResult copyPolicyGate(const PolicyRun& run);
// Every r <= 1/4 of the run, in order.
grading::GateResult maxPrincipleGate(const StabilityRun& run);
// Every r > 1/4 of the run.
grading::GateResult unstableGate(const StabilityRun& run);
// Every one-step sample and every policy loop.
grading::GateResult timingGate(const TimingRun& timing, const PolicyRun& policy);

}  // namespace day34::cases
