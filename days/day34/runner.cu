// The day 34 runner: the course's heat.cu as subcommands, linked with the
// course's kernels, a ping-pong setup and one tiled kernel (reference,
// submission or a planted bug). It reports what the kernels produced; the
// grading process decides whether that is right.
//
//   step      --kernel global|tiled [--steps S=4] [--r R=0.24] [--n N=2048]
//             result: grid f32[N*N] after S steps, previous f32[N*N] (the
//             other ping-pong buffer: the grid after S - 1 steps), n, steps.
//   policy    [--steps S=1000]  S tiled steps at r = 0.24, after one discarded
//             run, with the grid copied back never / every 100 / every step.
//             result: copy_every i32[3], loop_ms f32[3], final_every_<k>
//             f32[N*N] for each k of copy_every.
//   stability --kernel global|tiled [--steps S=400]  S steps at r = 0.24,
//             0.25, 0.26 from the initial grid. result: r f32[3], max_abs
//             f32[3] (max |u| of the final grid, NaN cells skipped),
//             nonfinite i64[3] (cells that are NaN or infinite), steps.
//   timing    one step of copyGrid, heatStepGlobal, heatStepTiled, each after
//             3 warm-ups, 10 timed runs reading a and writing b.
//             result: copy_ms, global_ms, tiled_ms f32[10].
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "harness/cuda_check.h"
#include "harness/event_timer.h"
#include "harness/guarded_buffer.h"
#include "harness/runner_main.h"
#include "heat_initial.h"
#include "heat_kernels.h"
#include "heat_pingpong.h"

namespace {

using grading::GuardedBuffer;
using grading::InputError;
using grading::Record;
using grading::RunnerArgs;

enum class Kernel { Global, Tiled };

Kernel parseKernel(const std::string& name) {
    if (name == "global") return Kernel::Global;
    if (name == "tiled") return Kernel::Tiled;
    throw InputError("--kernel wants global or tiled, got \"" + name + "\"");
}

const char* kernelName(Kernel k) { return k == Kernel::Global ? "heatStepGlobal" : "heatStepTiled"; }

day34::StepLauncher launcherFor(Kernel k) {
    return k == Kernel::Global ? day34::launchHeatStepGlobal : day34::launchHeatStepTiled;
}

std::string formatR(float r) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.2f", static_cast<double>(r));
    return text;
}

int gridSide(const RunnerArgs& args) {
    const int n = args.integer("n", day34::kN);
    if (n < 3 || n > 16384) throw InputError("--n " + std::to_string(n) + " is outside 3 .. 16384");
    return n;
}

// The two ping-pong buffers, with guard words, and the initial grid.
struct PingPong {
    explicit PingPong(int side)
        : n(side),
          cells(static_cast<size_t>(side) * static_cast<size_t>(side)),
          init(day34::initialGrid(side)),
          a("gridA", cells),
          b("gridB", cells) {
        guards.add(a);
        guards.add(b);
    }
    void reset() { day34::resetPingPong(a.data(), b.data(), init.data(), cells); }

    int n;
    size_t cells;
    std::vector<float> init;
    GuardedBuffer<float> a;
    GuardedBuffer<float> b;
    grading::GuardSet guards;
};

// Resets and runs `steps` steps with an error and guard check after each.
// Returns the buffer holding the newest grid.
GuardedBuffer<float>* checkedRun(PingPong& p, Kernel k, float r, int steps) {
    p.reset();
    GuardedBuffer<float>* cur = &p.a;
    GuardedBuffer<float>* next = &p.b;
    const day34::StepLauncher launch = launcherFor(k);
    for (int step = 1; step <= steps; ++step) {
        const std::string where = std::string(kernelName(k)) + " step " + std::to_string(step) + " of " +
                                  std::to_string(steps) + " at r = " + formatR(r);
        grading::breadcrumb(where);
        launch(cur->data(), next->data(), p.n, r);
        grading::checkLaunch(where);
        p.guards.check(where);
        std::swap(cur, next);
    }
    return cur;
}

void stepCommand(const RunnerArgs& args, Record& result) {
    const Kernel k = parseKernel(args.text("kernel"));
    const int n = gridSide(args);
    const int steps = args.integer("steps", day34::kCheckSteps);
    if (steps < 1) throw InputError("--steps must be at least 1");
    const float r = static_cast<float>(args.real("r", day34::kStableR));
    PingPong p(n);
    const GuardedBuffer<float>* newest = checkedRun(p, k, r, steps);
    const GuardedBuffer<float>* other = newest == &p.a ? &p.b : &p.a;
    result.putFloats("grid", newest->download());
    result.putFloats("previous", other->download());
    result.putInt("n", n);
    result.putInt("steps", steps);
}

void policyCommand(const RunnerArgs& args, Record& result) {
    const int steps = args.integer("steps", day34::kSteps);
    if (steps < 2 || steps % 2 != 0) throw InputError("--steps must be even and positive");
    PingPong p(day34::kN);
    std::vector<float> snapshot(p.cells, 0.0f);
    const auto run = [&](int copyEvery, const std::string& what) {
        const std::string where = std::string("heatStepTiled, ") + std::to_string(steps) + " steps " + what;
        p.reset();
        grading::breadcrumb(where);
        const float ms = day34::runSteps(day34::launchHeatStepTiled, p.a.data(), p.b.data(), p.n,
                                         day34::kStableR, steps, copyEvery, snapshot.data());
        grading::checkLaunch(where);
        p.guards.check(where);
        return ms;
    };
    // Discarded: without it the first row pays the clock ramp of whatever ran before.
    run(0, "(discarded warm-up run)");
    std::vector<int32_t> intervals;
    std::vector<float> loopMs;
    for (int every : day34::kCopyEvery) {
        const std::string what = every == 0 ? "never copied back" : "copied back every " + std::to_string(every);
        loopMs.push_back(run(every, what));
        intervals.push_back(every);
        result.putFloats("final_every_" + std::to_string(every), p.a.download());
    }
    result.putInts("copy_every", intervals);
    result.putFloats("loop_ms", loopMs);
    result.putInt("steps", steps);
}

void stabilityCommand(const RunnerArgs& args, Record& result) {
    const Kernel k = parseKernel(args.text("kernel"));
    const int steps = args.integer("steps", day34::kStabilitySteps);
    if (steps < 1) throw InputError("--steps must be at least 1");
    PingPong p(day34::kN);
    std::vector<float> rs;
    std::vector<float> maxAbs;
    std::vector<int64_t> nonFinite;
    for (float r : day34::kRValues) {
        const std::vector<float> grid = checkedRun(p, k, r, steps)->download();
        // Plain reductions of the kernel's output. NaN cells are skipped by
        // the max (as in the course) and counted here instead.
        float biggest = 0.0f;
        int64_t bad = 0;
        for (float v : grid) {
            if (!std::isfinite(v)) ++bad;
            if (std::fabs(v) > biggest) biggest = std::fabs(v);
        }
        rs.push_back(r);
        maxAbs.push_back(biggest);
        nonFinite.push_back(bad);
    }
    result.putFloats("r", rs);
    result.putFloats("max_abs", maxAbs);
    result.putInt64s("nonfinite", nonFinite);
    result.putInt("steps", steps);
}

void timingCommand(const RunnerArgs&, Record& result) {
    PingPong p(day34::kN);
    p.reset();
    // a is read and b written on every run, never swapped: each run sees the
    // same input and no reset sits inside the measurement.
    const auto time = [&](const std::string& name, const std::function<void()>& launch) {
        const std::string where = "timing " + name + " (one step, " + std::to_string(day34::kWarmupRuns) +
                                  " warm-ups, " + std::to_string(day34::kTimedRuns) + " timed runs)";
        grading::breadcrumb(where);
        const grading::TimingStats t = grading::timeRuns(launch, where, day34::kWarmupRuns, day34::kTimedRuns);
        p.guards.check(where);
        return t.samplesMs;
    };
    result.putFloats("copy_ms", time("copyGrid", [&] { day34::launchCopyGrid(p.a.data(), p.b.data(), p.cells); }));
    result.putFloats("global_ms", time("heatStepGlobal", [&] {
                         day34::launchHeatStepGlobal(p.a.data(), p.b.data(), p.n, day34::kStableR);
                     }));
    result.putFloats("tiled_ms", time("heatStepTiled", [&] {
                         day34::launchHeatStepTiled(p.a.data(), p.b.data(), p.n, day34::kStableR);
                     }));
}

}  // namespace

int main(int argc, char** argv) {
    return grading::runnerMain(argc, argv,
                               {{"step", stepCommand},
                                {"policy", policyCommand},
                                {"stability", stabilityCommand},
                                {"timing", timingCommand}});
}
