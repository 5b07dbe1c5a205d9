#include "day52_cases.h"

#include "day52_reference.h"
#include "day52_stress.h"
#include "forkjoin_constants.h"

namespace day52::cases {

namespace {

template <typename T>
void take(const grading::Expected<T>& field, T* into, std::string* error) {
    if (field) {
        *into = field.value();
    } else if (error->empty()) {
        *error = field.error();
    }
}

// Runs `subcommand` and fills the common part; false when there is no result.
bool call(Call* c, const std::string& runner, const std::string& subcommand, std::vector<std::string> args,
          double timeLimitSeconds = 120.0) {
    grading::RunnerCall rc;
    rc.runner = runner;
    rc.subcommand = subcommand;
    rc.args = std::move(args);
    rc.timeLimitSeconds = timeLimitSeconds;
    c->outcome = grading::callRunner(rc);
    if (!c->outcome.ok()) return false;
    int64_t sms = 0;
    take(c->outcome.result.integer("sm_count"), &sms, &c->fieldError);
    c->smCount = static_cast<int>(sms);
    take(c->outcome.result.text("device"), &c->device, &c->fieldError);
    return true;
}

}  // namespace

const std::vector<float>& want() {
    static const std::vector<float> reference = diamondHost(courseInputs());
    return reference;
}

OutRun runOut(const std::string& runner, const std::string& subcommand) {
    OutRun r;
    if (call(&r, runner, subcommand, {})) take(r.outcome.result.floats("out"), &r.out, &r.fieldError);
    return r;
}

StressResult runStress(const std::string& runner, int runs) {
    StressResult r;
    if (runs < 0) runs = kStressRuns;
    const std::vector<std::string> args = {"--runs", std::to_string(runs), "--upstream-hold-ms",
                                           std::to_string(kUpstreamHoldMs), "--branch-hold-ms",
                                           std::to_string(kBranchHoldMs)};
    if (!call(&r, runner, "stress", args)) return r;
    const grading::Record& out = r.outcome.result;
    std::vector<int32_t> held;
    take(out.ints("held_branch"), &held, &r.fieldError);
    take(out.floats("run_ms"), &r.runMs, &r.fieldError);
    take(out.real("upstream_hold_ms"), &r.hold.upstreamMs, &r.fieldError);
    take(out.real("branch_hold_ms"), &r.hold.branchMs, &r.fieldError);
    if (!r.fieldError.empty()) return r;
    if (held.size() != static_cast<size_t>(runs)) {
        r.fieldError = "held_branch has " + std::to_string(held.size()) + " entries for " + std::to_string(runs) + " runs";
        return r;
    }
    for (int k = 0; k < runs; ++k) {
        StressRun run;
        run.heldBranch = held[k];
        take(out.floats("out_" + std::to_string(k)), &run.out, &r.fieldError);
        r.runs.push_back(std::move(run));
    }
    return r;
}

NoTimingResult runNoTiming(const std::string& runner) {
    NoTimingResult r;
    if (!call(&r, runner, "no-timing", {})) return r;
    const grading::Record& out = r.outcome.result;
    int64_t probes = 0;
    take(out.integer("probes"), &probes, &r.fieldError);
    for (int64_t j = 0; j < probes && r.fieldError.empty(); ++j) {
        const std::string n = std::to_string(j);
        ElapsedProbe p;
        std::string cleared;
        take(out.text("events_" + n), &p.events, &r.fieldError);
        take(out.text("elapsed_error_" + n), &p.error, &r.fieldError);
        take(out.text("slot_after_clear_" + n), &p.slotAfterClear, &r.fieldError);
        take(out.text("slot_cleared_" + n), &cleared, &r.fieldError);
        r.probes.push_back(p);
        r.slotCleared.push_back(cleared);
    }
    return r;
}

TimingResult runTiming(const std::string& runner) {
    TimingResult r;
    if (!call(&r, runner, "timing", {"--warmups", std::to_string(kWarmupRuns), "--runs", std::to_string(kTimedRuns)})) {
        return r;
    }
    take(r.outcome.result.floats("diamond_ms"), &r.diamondMs, &r.fieldError);
    take(r.outcome.result.floats("serial_ms"), &r.serialMs, &r.fieldError);
    take(r.outcome.result.floats("out"), &r.out, &r.fieldError);
    return r;
}

}  // namespace day52::cases
