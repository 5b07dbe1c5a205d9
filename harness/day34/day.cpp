// Day 34, declared: every gate with its points, what it grades and requires,
// and the cases it runs on; and the report. grading.md's "Day 34" is the
// human page for the same table.
#include <algorithm>
#include <functional>
#include <iostream>

#include "cases.h"
#include "fast_stencil.h"
#include "gates.h"
#include "grid_file.h"
#include "harness/answer_cache.h"
#include "harness/day.h"
#include "harness/text.h"
#include "harness/timing_stats.h"
#include "heat_constants.h"
#include "heat_initial.h"
#include "picture.h"
#include "reference.h"
#include "report.h"
#include "shrink.h"

namespace {

using namespace day34::cases;
using grading::CaseContext;
using grading::GateCase;
using grading::GateResult;
namespace proto = day34::protocol;

// The host's stencil of `init`, computed once for a whole class
// (answer_cache.h): a few hundred milliseconds on a 2048 x 2048 grid.
std::vector<double> expectedGrid(const std::vector<float>& init, int n, int steps, double r) {
    const std::string key = grading::formatText("day34 host stencil: n %d, %d steps, r %a, ", n, steps, r) +
                            "initial grid " + grading::contentKey(init) + " of " + std::to_string(init.size()) + " cells";
    return grading::answerOnce<double>(key, [&] { return day34::hostReference(init, n, steps, r); });
}

// The course's, the exercise, then the instructor's fast stencil (reference
// runner only, fast_stencil.h). Only the exercise's cases are the student's.
const std::vector<std::string> kKernels = {"global", "tiled", "fast"};
// The kernels the 1000-step loops and 34.timing run: the exercise's and the instructor's.
const std::vector<std::string> kLoopKernels = {"tiled", "fast"};

std::vector<int32_t> copyPolicies() { return {std::begin(day34::kCopyEvery), std::end(day34::kCopyEvery)}; }

size_t cellsOf(int n) { return static_cast<size_t>(n) * static_cast<size_t>(n); }

// Grid k of grids of `cells` floats stored back to back.
std::vector<float> slice(const std::vector<float>& all, size_t k, size_t cells) {
    return {all.begin() + static_cast<std::ptrdiff_t>(k * cells),
            all.begin() + static_cast<std::ptrdiff_t>((k + 1) * cells)};
}

std::string incomplete(const std::string& what, size_t got, size_t want) {
    return "the runner's result is incomplete: " + what + " holds " + std::to_string(got) + " values, want " +
           std::to_string(want);
}

// A grid file of the largest grid a shrunk failure's message offers (about
// 3 MB of text); a larger one could fill the student's disk.
constexpr int kLargestGridFile = 520;

// One checked run of a kernel on a grid: the verdict, and the grid it left
// (empty when the runner gave none back).
using CheckedRun = grading::Judged<std::vector<float>>;

// The failure, with the smallest grid of the same kind found on which the
// kernel still fails the same way (shrink.h): the grid after the steps, its
// wrong cells marked (also as a picture), and its initial grid as a grid
// file to grade on. `run`: one checked run on a grid.
GateResult withSmallestGrid(const CheckedRun& failure, const std::string& call, const GridSpec& failing,
                            const std::function<CheckedRun(const GridSpec&, double)>& run,
                            const std::function<std::vector<float>(const GridSpec&)>& initOf) {
    grading::Shrinker<GridSpec, std::vector<float>> s;
    s.candidates = grading::madeAtOnce<GridSpec>(day34::shrink::candidates);
    s.judge = run;
    const auto found = grading::shrinkFailure(failing, failure, s, day34::shrink::kBudget);
    grading::recordFigure("counterexample_side", std::to_string(found.input.n));
    const std::vector<float> init = initOf(found.input);
    const std::string file =
        found.input.n > kLargestGridFile
            ? ""
            : grading::writeCounterexample(
                  call, "txt", day34::grids::gridFileText("day 34 counterexample: " + describe(found.input), found.input.n, init));
    std::string shown;
    if (found.input.n <= 16) {
        const std::vector<float>& got = found.output;
        const std::vector<double> want = expectedGrid(init, found.input.n, day34::kCheckSteps, day34::kStableR);
        shown = "initial grid (rows split by /): " + day34::shrink::gridText(found.input.n, init, {});
        if (got.size() == want.size()) {
            const std::vector<bool> wrong = day34::shrink::wrongCells(got, want);
            shown += "; after " + std::to_string(day34::kCheckSteps) + " steps, wrong cells marked *: " +
                     day34::shrink::gridText(found.input.n, got, wrong);
            if (const auto picture = day34::draw(day34::GridPicture{found.input.n, got, want, wrong})) {
                grading::recordPicture(call, *picture);
            }
        }
    }
    return grading::withSmallestInput(failure.verdict, found, describe(found.input), shown,
                                      file.empty() ? "" : file + " (grade on it: -DGRADING_DAY34_GRIDS=" + file + ")");
}

// ---- 34.stencil and 34.ring: kCheckSteps checked steps at kStableR, per
// kernel and grid; the course's kernel in the reference suite only. The two
// gates judge one run (gates.md: "after the same run"): the same grid, and
// the call's answer shared, so the second gate reads back the first's.
std::string stepSalt(const std::string& kernel) { return "34.step/" + kernel; }

template <class Judge>
std::vector<GateCase> stepCases(const std::string& id, Judge judge) {
    std::vector<GateCase> cases;
    for (const std::string& kernel : kKernels) {
        for (const GridSpec& g : stepGrids()) {
            GateCase c;
            c.name = kernel + "_" + g.name;
            c.what = kernelName(kernel) + " on " + describe(g);
            c.student = kernel == "tiled";
            c.seeded = g.kind == GridKind::Seeded;
            c.limitSeconds = stepSeconds(g.n, day34::kCheckSteps);
            c.run = [id, judge, kernel, g, name = c.name](const CaseContext& ctx) {
                // One checked run of the case's kernel on grid `on`: the verdict, and the output.
                const auto once = [&](const GridSpec& on, double seconds) -> CheckedRun {
                    const std::vector<float> init = initialGrid(on, ctx.seed, stepSalt(kernel));
                    const auto reply = step(ctx.runner, on, init, seededKey(on, ctx.seed, stepSalt(kernel)), kernel,
                                            day34::kCheckSteps, day34::kStableR,
                                            std::min(seconds, stepSeconds(on.n, day34::kCheckSteps)));
                    if (!reply.ok()) return GateResult::fail(id, reply.problem);
                    return {judge(kernelName(kernel), on, init, reply.result), reply.result.grid};
                };
                const CheckedRun first = once(g, ctx.limitSeconds);
                if (first.verdict.passed || !grading::shrinksFailure(first.verdict, ctx.showsDetails)) {
                    return first.verdict;
                }
                return withSmallestGrid(first, id + "/" + name, g, [&](const GridSpec& on, double seconds) {
                    return once(on, std::min(ctx.limitSeconds, seconds));
                }, [&](const GridSpec& on) { return initialGrid(on, ctx.seed, stepSalt(kernel)); });
            };
            cases.push_back(std::move(c));
        }
    }
    return cases;
}

GateResult judgeStencil(const std::string& kernel, const GridSpec& g, const std::vector<float>& init,
                        const proto::StepResult& r) {
    const std::vector<double> want = expectedGrid(init, g.n, day34::kCheckSteps, day34::kStableR);
    return day34::checkStencil(kernel, day34::kCheckSteps, g.n, r.grid, want);
}

// Both buffers: the newest grid, then the one before it.
GateResult judgeRing(const std::string& kernel, const GridSpec& g, const std::vector<float>& init,
                     const proto::StepResult& r) {
    GateResult v = day34::checkRing(kernel, day34::kCheckSteps, g.n, r.grid, init);
    if (v.passed) v = day34::checkRingCells(kernel, day34::kCheckSteps - 1, g.n, r.previousRing, init);
    return v;
}

// ---- 34.max_principle and 34.unstable: kStabilitySteps steps at each r of
// the gate's side of the bound, per kernel and grid.
template <class Judge>
std::vector<GateCase> stabilityCases(const std::string& id, const std::vector<float>& rs, Judge judge) {
    std::vector<GateCase> cases;
    for (const std::string& kernel : kKernels) {
        for (const GridSpec& g : stabilityGrids()) {
            GateCase c;
            c.name = kernel + "_" + g.name;
            c.what = kernelName(kernel) + ", " + std::to_string(day34::kStabilitySteps) + " steps at each r on " +
                     describe(g);
            c.student = kernel == "tiled";
            c.seeded = g.kind == GridKind::Seeded;
            c.limitSeconds = stabilitySeconds(g.n, day34::kStabilitySteps, static_cast<int>(rs.size()));
            c.run = [id, rs, judge, kernel, g](const CaseContext& ctx) {
                const std::vector<float> init = initialGrid(g, ctx.seed, id + "/" + kernel);
                const auto reply = stability(ctx.runner, g, init, kernel, day34::kStabilitySteps, rs, ctx.limitSeconds);
                if (!reply.ok()) return GateResult::fail(id, reply.problem);
                const size_t cells = cellsOf(g.n);
                if (reply.result.finals.size() != rs.size() * cells) {
                    return GateResult::fail(id, incomplete("finals", reply.result.finals.size(), rs.size() * cells));
                }
                const float initialMax = day34::maxAbs(init);
                for (size_t k = 0; k < rs.size(); ++k) {
                    const std::vector<float> grid = slice(reply.result.finals, k, cells);
                    const GateResult v = judge(rs[k], day34::maxAbs(grid), day34::countNonFinite(grid), initialMax);
                    if (!v.passed) return v;
                }
                return GateResult::pass(id);
            };
            cases.push_back(std::move(c));
        }
    }
    return cases;
}

// ---- 34.copy_policy: the course's 1000-step loop of the tiled kernel (and
// the instructor's fast one) per copy policy; the finals bit-identical, and
// what each copied policy left on the host is the final grid.
GateResult judgePolicy(const GridSpec& g, const std::vector<int32_t>& every, const proto::PolicyResult& r) {
    const char* id = "34.copy_policy";
    const size_t cells = cellsOf(g.n);
    size_t copied = 0;
    size_t never = every.size();
    for (size_t k = 0; k < every.size(); ++k) {
        if (every[k] > 0) ++copied;
        if (every[k] == 0) never = k;
    }
    if (r.loopMs.size() != every.size()) return GateResult::fail(id, incomplete("loop_ms", r.loopMs.size(), every.size()));
    if (r.finals.size() != every.size() * cells) {
        return GateResult::fail(id, incomplete("finals", r.finals.size(), every.size() * cells));
    }
    if (r.snapshots.size() != copied * cells) {
        return GateResult::fail(id, incomplete("snapshots", r.snapshots.size(), copied * cells));
    }
    if (never == every.size()) return GateResult::fail(id, "the policies hold no never-copied run");
    const std::vector<float> reference = slice(r.finals, never, cells);
    for (size_t k = 0; k < every.size(); ++k) {
        if (k == never) continue;
        const GateResult v = day34::checkCopyPolicy(g.n, reference, slice(r.finals, k, cells), every[k]);
        if (!v.passed) return v;
    }
    size_t s = 0;
    for (size_t k = 0; k < every.size(); ++k) {
        if (every[k] == 0) continue;
        const GateResult v =
            day34::checkSnapshot(g.n, day34::kSteps, every[k], slice(r.finals, k, cells), slice(r.snapshots, s++, cells));
        if (!v.passed) return v;
    }
    return GateResult::pass(id);
}

std::vector<GateCase> policyCases() {
    std::vector<GateCase> cases;
    for (const std::string& kernel : kLoopKernels) {
        for (const GridSpec& g : policyGrids()) {
            GateCase c;
            c.name = kernel + "_" + g.name;
            c.what = kernelName(kernel) + ", " + std::to_string(day34::kSteps) +
                     " steps copied back never, every 100 steps and every step, on " + describe(g);
            c.student = kernel == "tiled";
            c.seeded = g.kind == GridKind::Seeded;
            c.limitSeconds = policySeconds(g.n, day34::kSteps, copyPolicies());
            c.run = [kernel, g](const CaseContext& ctx) {
                const std::vector<int32_t> every = copyPolicies();
                const std::vector<float> init = initialGrid(g, ctx.seed, "34.copy_policy/" + kernel);
                const auto reply =
                    policy(ctx.runner, g, init, kernel, day34::kSteps, day34::kStableR, every, ctx.limitSeconds, false);
                if (!reply.ok()) return GateResult::fail("34.copy_policy", reply.problem);
                return judgePolicy(g, every, reply.result);
            };
            cases.push_back(std::move(c));
        }
    }
    return cases;
}

// ---- 34.timing: every time positive, and the timed work is graded work:
// what the timed one-step runs left is checked against the host's one step
// (the copy against its input) and the timed policy loops like 34.copy_policy.
double oneStepSeconds() { return timingSeconds(timingGrid().n, day34::kWarmupRuns, day34::kTimedRuns); }
double shapeStepSeconds() { return timingSeconds(shapeGrid().n, day34::kWarmupRuns, day34::kTimedRuns); }
double loopSeconds() { return policySeconds(timingGrid().n, day34::kSteps, copyPolicies()); }

// `want`: the host's one step of `init` (hostReference), made once per case.
GateResult timedOutputs(const GridSpec& g, const std::vector<float>& init, const std::vector<double>& want,
                        const proto::TimingResult& t, TimedKernels kernels) {
    const char* id = "34.timing";
    const GateResult copy = day34::checkCopy(g.n, t.copyOut, init);
    if (!copy.passed) return GateResult::fail(id, "copyGrid's timed run 0: " + copy.message);
    std::vector<std::pair<std::string, const std::vector<float>*>> outputs = {{"heatStepGlobal", &t.globalOut},
                                                                              {"heatStepTiled", &t.tiledOut}};
    if (kernels == TimedKernels::CourseAndFast) outputs.emplace_back("heatStepFast", &t.fastOut);
    // Run 0 graded in full, as an untimed step is.
    for (const auto& [kernel, out] : outputs) {
        GateResult v = day34::checkStencil(kernel, 1, g.n, *out, want);
        if (v.passed) v = day34::checkRing(kernel, 1, g.n, *out, init);
        if (!v.passed) return GateResult::fail(id, kernel + "'s timed run 0: " + v.message);
    }
    // Every later run against the course's answer to its own keyed grid (checked in the runner).
    std::vector<std::pair<std::string, const std::vector<int64_t>*>> runs = {
        {"copyGrid", &t.copyRunDiff}, {"heatStepGlobal", &t.globalRunDiff}, {"heatStepTiled", &t.tiledRunDiff}};
    if (kernels == TimedKernels::CourseAndFast) runs.emplace_back("heatStepFast", &t.fastRunDiff);
    for (const auto& [kernel, diff] : runs) {
        const GateResult v = day34::checkTimedRuns(kernel, g.n, *diff, day34::kTimedRuns);
        if (!v.passed) return v;
    }
    return GateResult::pass(id);
}

// 34.timing's timed calls: one step of `kernels` on g at r from `init`,
// its later runs' grids keyed for `purpose`; and the policy loops of
// `kernel` on the timing grid. Their answers are shared: the report asks
// the same calls on the timing grid after the gate, in a class's timed
// test, and reads back the runs the gate graded instead of holding the GPU
// to time the same work again.
const char* const kOneStepPurpose = "34.timing/one_step";

grading::Reply<proto::Timing> oneStepCall(const std::string& runner, uint64_t seed, const GridSpec& g, float r,
                                          const std::string& purpose, const std::vector<float>& init,
                                          TimedKernels kernels, bool exclusiveGpu) {
    const double limit = g.name == timingGrid().name ? oneStepSeconds() : shapeStepSeconds();
    return timing(runner, g, init, grading::caseSeed(seed, purpose + "/keys"), r, day34::kWarmupRuns,
                  day34::kTimedRuns, limit, exclusiveGpu, kernels, grading::Answer::Shared);
}

grading::Reply<proto::Policy> loopCall(const std::string& runner, uint64_t seed, const std::string& kernel,
                                       bool exclusiveGpu) {
    const GridSpec g = timingGrid();
    return policy(runner, g, initialGrid(g, seed, "34.timing/loops"), kernel, day34::kSteps, day34::kStableR,
                  copyPolicies(), loopSeconds(), exclusiveGpu, grading::Answer::Shared);
}

// One timed call (oneStepCall), every timed output graded (timedOutputs; on
// the shape grid the message names the grid and r). The call's result, or
// the failure.
grading::Expected<proto::TimingResult> timedStep(const std::string& runner, uint64_t seed, const GridSpec& g,
                                                 float r, const std::string& purpose, TimedKernels kernels,
                                                 bool exclusiveGpu) {
    const bool shape = g.name != timingGrid().name;
    const std::string place = shape ? "on " + describe(g) + " at r = " + grading::formatText("%.2f", r) : "";
    const std::vector<float> init = initialGrid(g, seed, purpose);
    const std::vector<double> want = expectedGrid(init, g.n, 1, r);
    const auto t = oneStepCall(runner, seed, g, r, purpose, init, kernels, exclusiveGpu);
    if (!t.ok()) return grading::Error{"no one-step times" + (shape ? " " + place : "") + ": " + t.problem};
    if (kernels == TimedKernels::CourseAndFast && t.result.fastMs.empty()) {
        return grading::Error{std::string(day34::kFastStencilAbsent)};
    }
    const GateResult outputs = timedOutputs(g, init, want, t.result, kernels);
    if (!outputs.passed) return grading::Error{(shape ? place + ": " : "") + outputs.message};
    return t.result;
}

// The instructor's case (kernel "fast") adds heatStepFast's one step, and its
// loops replace the tiled kernel's. Between the one step on the 2048 grid
// and the loops on it, a timed step of a smaller grid at another r
// (shapeGrid, kShapeR): no shape or r latched on the first call holds.
std::vector<GateCase> timingCases() {
    const GridSpec g = timingGrid();
    const GridSpec small = shapeGrid();
    std::vector<GateCase> cases;
    for (const std::string& kernel : kLoopKernels) {
        const bool withFast = kernel == "fast";
        GateCase c;
        c.name = kernel + "_" + g.name;
        c.what = "one step each of copyGrid, heatStepGlobal, heatStepTiled" + std::string(withFast ? ", heatStepFast" : "") +
                 " (" + std::to_string(day34::kTimedRuns) + " timed runs) on " + describe(g) + ", then on " +
                 describe(small) + " at r = " + grading::formatText("%.2f", kShapeR) + ", and the " +
                 std::to_string(day34::kSteps) + "-step policy loops of " + kernelName(kernel) + " on the first";
        c.student = !withFast;
        c.seeded = true;
        c.limitSeconds = oneStepSeconds() + shapeStepSeconds() + loopSeconds();
        c.run = [g, small, kernel, withFast](const CaseContext& ctx) -> GateResult {
            const char* id = "34.timing";
            std::vector<std::pair<std::string, double>> figures;
            const auto add = [&figures](const std::string& name, const std::vector<float>& samples) {
                for (size_t k = 0; k < samples.size(); ++k) {
                    figures.emplace_back(name + ", timed run " + std::to_string(k), samples[k]);
                }
                if (samples.size() != static_cast<size_t>(day34::kTimedRuns)) {
                    figures.emplace_back(name + " (timed runs missing)", 0.0);
                }
            };
            const TimedKernels kernels = withFast ? TimedKernels::CourseAndFast : TimedKernels::Course;
            const std::vector<std::pair<GridSpec, float>> calls = {{g, day34::kStableR}, {small, kShapeR}};
            for (const auto& [grid, r] : calls) {
                const std::string tag = grid.name == g.name ? " one step" : " one step on " + grid.name;
                const std::string purpose = grid.name == g.name ? kOneStepPurpose : "34.timing/shape";
                const auto t = timedStep(ctx.runner, ctx.seed, grid, r, purpose, kernels, ctx.exclusiveGpu);
                if (!t.ok()) return GateResult::fail(id, t.error());
                add("copyGrid" + tag, t->copyMs);
                add("heatStepGlobal" + tag, t->globalMs);
                add("heatStepTiled" + tag, t->tiledMs);
                if (withFast) add("heatStepFast" + tag, t->fastMs);
            }

            const std::vector<int32_t> every = copyPolicies();
            const auto p = loopCall(ctx.runner, ctx.seed, kernel, ctx.exclusiveGpu);
            if (!p.ok()) return GateResult::fail(id, "no policy loop times: " + p.problem);
            const GateResult loops = judgePolicy(g, every, p.result);
            if (!loops.passed) return GateResult::fail(id, "the timed policy loops: " + loops.message);
            for (size_t k = 0; k < every.size(); ++k) {
                figures.emplace_back(std::to_string(day34::kSteps) + " steps " + day34::policyLabel(every[k]),
                                     p.result.loopMs[k]);
            }
            return day34::checkTimings(figures);
        };
        cases.push_back(std::move(c));
    }
    return cases;
}

// ---- 34.speed: the exercise's tiled step against the instructor's, by the
// grader's clock (clockedRunMs): calls of kClockedSteps chained steps and of
// twice that, each from its own keyed 2048 x 2048 grid, to each runner in
// turn (speedCase). The submission's last grid must hold the energy the
// instructor's runner leaves on the same grid, so its calls cannot answer
// before their steps are done. Scored on the ramp, worth 0 points unless
// the instructor gives it some below.
constexpr int kSpeedRounds = 8;
constexpr int kClockedSteps = 1000;  // the solution: 23 ms on the H100, far above the clock's jitter

std::vector<GateCase> speedCases() {
    const GridSpec g = timingGrid();
    GateCase c;
    c.name = "tiled_" + g.name;
    c.what = "heatStepTiled, " + std::to_string(kClockedSteps) + " and " + std::to_string(2 * kClockedSteps) +
             " chained steps on keyed " + std::to_string(g.n) + " x " + std::to_string(g.n) + " grids";
    c.seeded = true;
    // Each round: both runners' two calls, and the instructor's on the submission's two inputs.
    c.limitSeconds = 3 * kSpeedRounds * (clockedSeconds(g.n, kClockedSteps) + clockedSeconds(g.n, 2 * kClockedSteps));
    c.run = [g](const CaseContext& ctx) {
        int calls = 0;
        int measures = 0;
        const auto measure = [&](const std::string& runner) -> grading::Expected<std::vector<float>> {
            const grading::ClockedCall call = [&](int steps) -> grading::Expected<double> {
                const uint64_t key = grading::caseSeed(ctx.seed, "34.speed/clocked/" + std::to_string(calls++));
                const double limit = clockedSeconds(g.n, steps);
                const auto got = clocked(runner, g.n, key, "tiled", steps, day34::kStableR, limit, ctx.exclusiveGpu);
                if (!got.ok()) return grading::Error{got.problem};
                if (runner != ctx.referenceRunner) {
                    // The instructor's grid for the proof, untimed: shared, so a
                    // class's students (whose calls draw the same keys) ask it once.
                    const auto want = clocked(ctx.referenceRunner, g.n, key, "tiled", steps, day34::kStableR, limit,
                                              false, grading::Answer::Shared);
                    if (!want.ok()) return grading::Error{"the instructor's runner on the same grid: " + want.problem};
                    const GateResult proof =
                        day34::checkClockedSteps("heatStepTiled", steps, got.result.energy, got.result.nonFinite,
                                                 want.result.energy, want.result.nonFinite);
                    if (!proof.passed) return grading::Error{proof.message};
                }
                return got.seconds();
            };
            const uint64_t order = grading::caseSeed(ctx.seed, "34.speed/order/" + std::to_string(measures++));
            const grading::Expected<float> ms = grading::clockedRunMs(call, kClockedSteps, order);
            if (!ms) return grading::Error{ms.error()};
            return std::vector<float>{*ms};
        };
        return grading::speedCase(ctx, "34.speed", "heatStepTiled's step by the grader's clock", kSpeedRounds, measure);
    };
    return {c};
}

// ---- the report: the course's three tables, the runner's tiled kernel in
// the tiled rows. Observations only. The one-step and policy tables are
// 34.timing's own calls on its grid (oneStepCall, loopCall): in a class's
// day test, which runs the gate first, the report reads back the runs the
// gate graded and holds the GPU for none of them; elsewhere it makes the
// calls. The instructor's runner adds its fast stencil's row, as 34.timing's
// instructor case asks. The stability table steps the course's grid.
double reportSeconds() {
    return oneStepSeconds() + loopSeconds() + stabilitySeconds(day34::kN, day34::kStabilitySteps, day34::kNumR);
}

void report(const CaseContext& ctx) {
    const GridSpec g = timingGrid();
    const auto record = [](const std::string& key, double value) { grading::recordFigure(key, day34::formatValue(value)); };
    std::cout << "\nGrid: " << g.n << " x " << g.n << " cells, "
              << grading::formatText("%.1f", static_cast<double>(cellsOf(g.n) * sizeof(float)) / (1 << 20))
              << " MiB a buffer, two on the device\n"
              << "Tile: " << day34::kTileX << " x " << day34::kTileY << " output from a " << day34::kSharedX << " x "
              << day34::kSharedY << " apron: " << day34::kTaps << " global reads per cell become "
              << day34::formatValue(static_cast<double>(day34::kSharedCells) / (day34::kTileX * day34::kTileY))
              << "\n\n";

    const TimedKernels kernels = ctx.instructorsRunner() ? TimedKernels::CourseAndFast : TimedKernels::Course;
    const auto t = oneStepCall(ctx.runner, ctx.seed, g, day34::kStableR, kOneStepPurpose,
                               initialGrid(g, ctx.seed, kOneStepPurpose), kernels, ctx.exclusiveGpu);
    if (t.ok()) {
        const grading::TimingStats copy = grading::summarize(t.result.copyMs);
        const grading::TimingStats global = grading::summarize(t.result.globalMs);
        const grading::TimingStats tiled = grading::summarize(t.result.tiledMs);
        const double copyMs = copy.medianMs, globalMs = global.medianMs, tiledMs = tiled.medianMs;
        std::vector<day34::OneStepRow> rows = {{"copyGrid, no stencil", copyMs, copy.iqrMs()},
                                               {"heatStepGlobal", globalMs, global.iqrMs()},
                                               {"heatStepTiled", tiledMs, tiled.iqrMs()}};
        const grading::TimingStats fast = grading::summarize(t.result.fastMs);
        const double fastMs = fast.medianMs;
        if (fastMs > 0.0) {
            rows.push_back({"heatStepFast (instr.)", fastMs, fast.iqrMs()});
            record("fast_ms", fastMs);
            record("fast_gbs", day34::bandwidthGBs(fastMs, cellsOf(g.n)));
            record("fast_pct_of_copy", 100.0 * copyMs / fastMs);
        }
        std::cout << day34::oneStepTable(rows, cellsOf(g.n), day34::kWarmupRuns, static_cast<int>(copy.samplesMs.size()))
                  << (fastMs > 0.0 ? "" : "heatStepFast: instructor-only, not in this runner\n") << "\n";
        record("copy_ms", copyMs);
        record("global_ms", globalMs);
        record("tiled_ms", tiledMs);
        record("copy_gbs", day34::bandwidthGBs(copyMs, cellsOf(g.n)));
        record("global_gbs", day34::bandwidthGBs(globalMs, cellsOf(g.n)));
        record("tiled_gbs", day34::bandwidthGBs(tiledMs, cellsOf(g.n)));
        if (globalMs > 0.0) record("global_pct_of_copy", 100.0 * copyMs / globalMs);
        if (tiledMs > 0.0) record("tiled_pct_of_copy", 100.0 * copyMs / tiledMs);
    } else {
        std::cout << "One step: no times: " << t.problem << "\n\n";
    }

    const std::vector<int32_t> every = copyPolicies();
    const auto p = loopCall(ctx.runner, ctx.seed, "tiled", ctx.exclusiveGpu);
    if (p.ok() && p.result.loopMs.size() == every.size()) {
        std::vector<day34::PolicyRow> rows;
        for (size_t k = 0; k < every.size(); ++k) {
            const double ms = p.result.loopMs[k];
            rows.push_back({every[k], ms});
            record("loop_ms_every_" + std::to_string(every[k]), ms);
            if (p.result.loopMs[0] > 0.0) record("loop_ratio_every_" + std::to_string(every[k]), ms / p.result.loopMs[0]);
        }
        std::cout << day34::policyTable(rows, day34::kSteps, cellsOf(g.n)) << "\n";
    } else {
        std::cout << "Copy policies: no times: " << (p.ok() ? "the loop times are missing" : p.problem) << "\n\n";
    }

    const GridSpec course = courseGrid();
    const std::vector<float> init = day34::initialGrid(course.n);
    const std::vector<float> rs(std::begin(day34::kRValues), std::end(day34::kRValues));
    const auto s = stability(ctx.runner, course, init, "tiled", day34::kStabilitySteps, rs,
                             stabilitySeconds(course.n, day34::kStabilitySteps, day34::kNumR));
    if (s.ok() && s.result.finals.size() == rs.size() * cellsOf(course.n)) {
        std::vector<day34::StabilityRow> rows;
        for (size_t k = 0; k < rs.size(); ++k) {
            const std::vector<float> grid = slice(s.result.finals, k, cellsOf(course.n));
            const float biggest = day34::maxAbs(grid);
            const long long bad = day34::countNonFinite(grid);
            rows.push_back({rs[k], biggest, bad == 0});
            const std::string r = std::to_string(static_cast<int>(rs[k] * 100.0f + 0.5f));
            record("max_abs_r0_" + r, biggest);
            record("nonfinite_r0_" + r, static_cast<double>(bad));
        }
        std::cout << day34::stabilityTable(rows, day34::kStabilitySteps, day34::maxAbs(init)) << std::endl;
    } else {
        std::cout << "Stability: no figures: " << (s.ok() ? "the final grids are missing" : s.problem) << std::endl;
    }
}

// The report's figures as the HTML page draws them.
void reportCharts(grading::Day& day) {
    day.heading("Day 34: heat-equation stencil");
    // The copy kernel is the floor a stencil step is measured against: a rule across the other kernels' bars.
    day.chart(grading::ChartSpec("day34-bandwidth")
        .title("Bandwidth of one step against the copy floor")
        .caption("GB/s of each kernel (figures <kernel>_gbs); the dashed rule is copyGrid, a copy with no stencil.")
        .missing("no bandwidth figures (<kernel>_gbs) were recorded")
        .figures("(\\w+)_gbs", {"kernel"}, "gbs")
        .vegaLite(R"vl({"width": 460, "height": {"step": 30},
 "encoding": {"x": {"field": "gbs", "type": "quantitative", "title": "GB/s, one step (median)"}},
 "layer": [{"transform": [{"filter": "datum.kernel !== 'copy'"}],
            "encoding": {"y": {"field": "kernel", "type": "nominal", "sort": null, "title": null}},
            "layer": [{"mark": {"type": "bar", "tooltip": true},
                       "encoding": {"color": {"field": "kernel", "legend": null}}},
                      {"mark": {"type": "text", "align": "left", "dx": 3},
                       "encoding": {"text": {"field": "gbs", "format": ".0f"}}}]},
           {"transform": [{"filter": "datum.kernel === 'copy'"}],
            "layer": [{"mark": {"type": "rule", "color": "#444", "strokeDash": [4, 3]}},
                      {"mark": {"type": "text", "align": "center", "baseline": "bottom", "y": -3,
                                "text": "copy floor"}}]}]})vl"));
    // Never copied back first, then from the rarest copy to every step.
    day.chart(grading::ChartSpec("day34-copy-policy")
        .title("What each copy policy costs")
        .caption("The same loop of heatStepTiled, only the copy back to the host changes (figures loop_ms_every_<n>).")
        .missing("no loop times (loop_ms_every_<n>) were recorded")
        .figures("loop_ms_every_([0-9]+)", {"every"}, "ms")
        .vegaLite(R"vl({"width": 460, "height": {"step": 26},
 "transform": [{"calculate": "datum.every === 1 ? 'step' : datum.every + ' steps'", "as": "period"},
               {"calculate": "datum.every === 0 ? 'never copied back' : 'copied back every ' + datum.period",
                "as": "name"},
               {"calculate": "datum.every === 0 ? -1 : 1 / datum.every", "as": "order"}],
 "encoding": {"y": {"field": "name", "type": "nominal", "sort": {"field": "order"}, "title": null},
              "x": {"field": "ms", "type": "quantitative", "scale": {"type": "log"}, "stack": null,
                    "title": "ms for the whole loop (log scale)"}},
 "layer": [{"mark": {"type": "bar", "tooltip": true},
            "encoding": {"color": {"field": "name", "type": "nominal", "sort": {"field": "order"}, "legend": null}}},
           {"mark": {"type": "text", "align": "left", "dx": 3},
            "encoding": {"text": {"field": "ms", "format": ".1f"}}}]})vl"));
}

}  // namespace

grading::Day grading::declareDay() {
    grading::Day day("day34");
    const std::vector<std::string> stencil = {"34.stencil"};
    // A failure shrinks to a grid of 12 x 12 or smaller: an interior of at most 10 x 10 (shrink.h).
    for (const char* gate : {"34.stencil", "34.ring"}) day.shrinksTo({gate, "([0-9]+) x [0-9]+ grid", 12});
    using grading::GateSpec;
    day.gate(GateSpec("34.stencil").title("each stencil kernel matches the double-precision host reference").points(4),
             stepCases("34.stencil", judgeStencil));
    day.gate(GateSpec("34.ring").title("the Dirichlet boundary ring never moves").points(2).prerequisites(stencil),
             stepCases("34.ring", judgeRing));
    day.gate(GateSpec("34.copy_policy")
                 .title("the copy policy cannot change the answer")
                 .points(2)
                 .prerequisites(stencil),
             policyCases());
    day.gate(GateSpec("34.max_principle")
                 .title("discrete maximum principle at r <= 1/4")
                 .points(1)
                 .prerequisites(stencil),
             stabilityCases("34.max_principle", {day34::kStableR, day34::kBoundaryR},
                            [](float r, float maxAbs, long long nonFinite, float initialMax) {
                                return day34::checkMaxPrinciple(r, maxAbs, nonFinite, day34::kStabilitySteps, initialMax);
                            }));
    day.gate(GateSpec("34.unstable").title("the other side of the CFL bound grows").points(1).prerequisites(stencil),
             stabilityCases("34.unstable", {day34::kUnstableR},
                            [](float r, float maxAbs, long long nonFinite, float initialMax) {
                                return day34::checkUnstable(r, maxAbs, nonFinite, day34::kStabilitySteps, initialMax);
                            }));
    day.gate(GateSpec("34.timing")
                 .title("timings are real, of the graded work")
                 .points(1)
                 .prerequisites(stencil)
                 .timed(true),
             timingCases());
    day.gate(GateSpec("34.speed")
                 .title("the tiled step's speed against the instructor's (scored on a ramp)")
                 .points(0)
                 .prerequisites(stencil)
                 .timed(true)
                 .scored(true),
             speedCases());
    day.observe("report", reportSeconds(), report);
    reportCharts(day);
    return day;
}
