#include "day34_cases.h"

#include <cstdint>

#include "day34_gates.h"
#include "day34_reference.h"
#include "day34_report.h"
#include "heat_constants.h"
#include "heat_initial.h"

namespace day34::cases {

using grading::GateResult;

std::vector<std::string> kernels() { return {"global", "tiled"}; }

std::string kernelName(const std::string& kernel) { return kernel == "global" ? "heatStepGlobal" : "heatStepTiled"; }

const std::vector<float>& initialGrid() {
    static const std::vector<float> grid = day34::initialGrid(kN);
    return grid;
}

const std::vector<double>& checkReference() {
    static const std::vector<double> want =
        hostReference(initialGrid(), kN, kCheckSteps, static_cast<double>(kStableR));
    return want;
}

float initialMax() { return maxAbs(initialGrid()); }

namespace {

template <typename T>
void take(const grading::Expected<T>& field, T* into, std::string* problem) {
    if (field) {
        *into = field.value();
    } else if (problem->empty()) {
        *problem = "the runner's result is incomplete: " + field.error();
    }
}

void takeInt(const grading::Record& out, const std::string& name, int* into, std::string* problem) {
    int64_t v = 0;
    take(out.integer(name), &v, problem);
    *into = static_cast<int>(v);
}

grading::RunnerOutcome call(const std::string& runner, const std::string& subcommand,
                            const std::vector<std::string>& args, const std::string& label, double limitSeconds) {
    grading::RunnerCall c;
    c.runner = runner;
    c.subcommand = subcommand;
    c.args = args;
    c.label = label;
    c.timeLimitSeconds = limitSeconds;
    return grading::callRunner(c);
}

}  // namespace

StepRun runStep(const std::string& runner, const std::string& kernel, int steps) {
    StepRun r;
    r.outcome = call(runner, "step", {"--kernel", kernel, "--steps", std::to_string(steps)},
                     "step --kernel " + kernel + " --steps " + std::to_string(steps), 120.0);
    if (!r.outcome.ok()) {
        r.problem = r.outcome.message;
        return r;
    }
    const grading::Record& out = r.outcome.result;
    take(out.floats("grid"), &r.grid, &r.problem);
    take(out.floats("previous"), &r.previous, &r.problem);
    takeInt(out, "steps", &r.steps, &r.problem);
    return r;
}

PolicyRun runPolicy(const std::string& runner) {
    PolicyRun r;
    r.outcome = call(runner, "policy", {}, "policy (" + std::to_string(kSteps) + " tiled steps, three copy policies)",
                     240.0);
    if (!r.outcome.ok()) {
        r.problem = r.outcome.message;
        return r;
    }
    const grading::Record& out = r.outcome.result;
    std::vector<int32_t> every;
    take(out.ints("copy_every"), &every, &r.problem);
    take(out.floats("loop_ms"), &r.loopMs, &r.problem);
    takeInt(out, "steps", &r.steps, &r.problem);
    r.copyEvery.assign(every.begin(), every.end());
    for (int k : r.copyEvery) {
        r.finals.emplace_back();
        take(out.floats("final_every_" + std::to_string(k)), &r.finals.back(), &r.problem);
    }
    if (r.problem.empty() && (r.copyEvery.size() != kNumPolicies || r.loopMs.size() != r.copyEvery.size())) {
        r.problem = "the runner's result is incomplete: " + std::to_string(r.copyEvery.size()) + " policies and " +
                    std::to_string(r.loopMs.size()) + " loop times, want " + std::to_string(kNumPolicies);
    }
    return r;
}

StabilityRun runStability(const std::string& runner, const std::string& kernel) {
    StabilityRun r;
    r.outcome = call(runner, "stability", {"--kernel", kernel}, "stability --kernel " + kernel, 180.0);
    if (!r.outcome.ok()) {
        r.problem = r.outcome.message;
        return r;
    }
    const grading::Record& out = r.outcome.result;
    take(out.floats("r"), &r.r, &r.problem);
    take(out.floats("max_abs"), &r.maxAbs, &r.problem);
    take(out.int64s("nonfinite"), &r.nonFinite, &r.problem);
    takeInt(out, "steps", &r.steps, &r.problem);
    if (r.problem.empty() && (r.r.size() != kNumR || r.maxAbs.size() != kNumR || r.nonFinite.size() != kNumR)) {
        r.problem = "the runner's result is incomplete: want " + std::to_string(kNumR) + " values of r";
    }
    return r;
}

TimingRun runTiming(const std::string& runner) {
    TimingRun r;
    r.outcome = call(runner, "timing", {}, "timing (copy, global, tiled: one step each)", 120.0);
    if (!r.outcome.ok()) {
        r.problem = r.outcome.message;
        return r;
    }
    const grading::Record& out = r.outcome.result;
    take(out.floats("copy_ms"), &r.copyMs, &r.problem);
    take(out.floats("global_ms"), &r.globalMs, &r.problem);
    take(out.floats("tiled_ms"), &r.tiledMs, &r.problem);
    return r;
}

GateResult stencilGate(const std::string& kernel, const StepRun& run) {
    if (!run.problem.empty()) return GateResult::fail("34.stencil", run.problem);
    if (run.steps == kCheckSteps) return checkStencil(kernelName(kernel), run.steps, kN, run.grid, checkReference());
    return checkStencil(kernelName(kernel), run.steps, kN, run.grid,
                        hostReference(initialGrid(), kN, run.steps, static_cast<double>(kStableR)));
}

GateResult ringGate(const std::string& kernel, const StepRun& run) {
    if (!run.problem.empty()) return GateResult::fail("34.ring", run.problem);
    GateResult r = checkRing(kernelName(kernel), run.steps, kN, run.grid, initialGrid());
    if (r.passed) r = checkRing(kernelName(kernel), run.steps - 1, kN, run.previous, initialGrid());
    return r;
}

GateResult copyPolicyGate(const PolicyRun& run) {
    if (!run.problem.empty()) return GateResult::fail("34.copy_policy", run.problem);
    size_t never = run.copyEvery.size();
    for (size_t k = 0; k < run.copyEvery.size(); ++k) {
        if (run.copyEvery[k] == 0) never = k;
    }
    if (never == run.copyEvery.size()) return GateResult::fail("34.copy_policy", "the runner returned no never-copied run");
    for (size_t k = 0; k < run.copyEvery.size(); ++k) {
        if (k == never) continue;
        const GateResult r = checkCopyPolicy(kN, run.finals[never], run.finals[k], run.copyEvery[k]);
        if (!r.passed) return r;
    }
    return GateResult::pass("34.copy_policy");
}

GateResult maxPrincipleGate(const StabilityRun& run) {
    if (!run.problem.empty()) return GateResult::fail("34.max_principle", run.problem);
    for (size_t k = 0; k < run.r.size(); ++k) {
        if (run.r[k] > 0.25f) continue;
        const GateResult r = checkMaxPrinciple(run.r[k], run.maxAbs[k], run.nonFinite[k], run.steps, initialMax());
        if (!r.passed) return r;
    }
    return GateResult::pass("34.max_principle");
}

GateResult unstableGate(const StabilityRun& run) {
    if (!run.problem.empty()) return GateResult::fail("34.unstable", run.problem);
    for (size_t k = 0; k < run.r.size(); ++k) {
        if (run.r[k] <= 0.25f) continue;
        const GateResult r = checkUnstable(run.r[k], run.maxAbs[k], run.nonFinite[k], run.steps, initialMax());
        if (!r.passed) return r;
    }
    return GateResult::pass("34.unstable");
}

GateResult timingGate(const TimingRun& timing, const PolicyRun& policy) {
    if (!timing.problem.empty()) return GateResult::fail("34.timing", "no one-step times: " + timing.problem);
    if (!policy.problem.empty()) return GateResult::fail("34.timing", "no policy times: " + policy.problem);
    std::vector<std::pair<std::string, double>> figures;
    const auto add = [&](const std::string& name, const std::vector<float>& samples) {
        for (size_t k = 0; k < samples.size(); ++k) {
            figures.emplace_back(name + " one step, timed run " + std::to_string(k), samples[k]);
        }
        if (samples.size() != static_cast<size_t>(kTimedRuns)) figures.emplace_back(name + " (timed runs missing)", 0.0);
    };
    add("copyGrid", timing.copyMs);
    add("heatStepGlobal", timing.globalMs);
    add("heatStepTiled", timing.tiledMs);
    for (size_t k = 0; k < policy.copyEvery.size(); ++k) {
        figures.emplace_back(std::to_string(policy.steps) + " steps " + policyLabel(policy.copyEvery[k]),
                             policy.loopMs[k]);
    }
    return checkTimings(figures);
}

}  // namespace day34::cases
