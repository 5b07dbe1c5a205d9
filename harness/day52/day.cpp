// Day 52, declared: every gate with its points, what it grades and requires,
// and the cases it runs on; and the report. grading.md's "Day 52" is the
// human page for the same table.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <map>

#include "cases.h"
#include "forkjoin_constants.h"
#include "gates.h"
#include "harness/answer_cache.h"
#include "harness/day.h"
#include "harness/text.h"
#include "harness/timing_stats.h"
#include "inputs.h"
#include "report.h"

namespace {

using namespace day52::cases;
using grading::CaseContext;
using grading::GateCase;
using grading::GateResult;

// Each case draws its own inputs from the seed: no two calls see the same.
constexpr uint64_t kSaltDiamond = 0xd1a0'0001;
constexpr uint64_t kSaltSerial = 0xd1a0'0002;
constexpr uint64_t kSaltStress = 0xd1a0'0003;
constexpr uint64_t kSaltOverlap = 0xd1a0'0004;
constexpr uint64_t kSaltReport = 0xd1a0'0005;
constexpr int kSeededDiamonds = 3;  // one process, a fresh diamond and a fresh input each
constexpr int kSeededSerials = 2;

std::vector<std::vector<float>> references(const std::vector<uint64_t>& keys) {
    std::vector<std::vector<float>> wants;
    for (uint64_t key : keys) wants.push_back(reference(key));
    return wants;
}

// Marks the running test skipped with `reason`: the report shows NOT RUN and
// the reason, neither a pass nor a fail.
void reportNotGated(const std::string& reason) { GTEST_SKIP() << reason; }

// 52.diamond and 52.serial: the course's input, then seeded inputs, several
// in one process. Only the submitted diamond's launch log is checked (the
// course's kernels, in the course's shape): the serial version is the course's own.
template <class Call>
std::vector<GateCase> runsCases(const std::string& id, const std::string& what, bool student, uint64_t salt,
                                int seededRuns, Call call) {
    const auto judge = [id, student](const auto& reply, const std::vector<uint64_t>& keys) -> GateResult {
        if (!reply.ok()) return GateResult::fail(id, reply.problem);
        const GateResult outs = day52::checkOuts(id, perRun(reply.result.out, keys.size()), references(keys));
        if (!outs.passed) return outs;
        const GateResult ends = day52::checkEndsOnStream0(id, reply.result.leftRunning);
        if (!ends.passed || !student) return ends;
        const std::vector<std::vector<day52::Launch>> launches = launchesPerRun(reply.result, keys.size());
        for (size_t r = 0; r < keys.size(); ++r) {
            const GateResult shape = day52::checkLaunches(launches[r], keys.size() > 1 ? static_cast<int>(r) : -1);
            if (!shape.passed) return shape;
        }
        return outs;
    };
    GateCase course;
    course.name = "course_input";
    course.what = what + " on the course's input (2^20 floats, 251 values)";
    course.student = student;
    course.limitSeconds = runSeconds(1);
    course.run = [judge, call](const CaseContext& ctx) {
        const std::vector<uint64_t> keys = {day52::kCourseInputKey};
        return judge(call(ctx.runner, keys, ctx.limitSeconds), keys);
    };
    GateCase handMade;
    handMade.name = "hand_made";
    handMade.what = what + " on a hand-made input (stairs of equal values and -0, no generator's)";
    handMade.student = student;
    handMade.limitSeconds = runSeconds(1);
    handMade.run = [judge, call](const CaseContext& ctx) {
        const std::vector<uint64_t> keys = {day52::kHandMadeInputKey};
        return judge(call(ctx.runner, keys, ctx.limitSeconds), keys);
    };
    GateCase seeded;
    seeded.name = "seeded";
    seeded.what = what + ", " + std::to_string(seededRuns) + " fresh diamonds on seeded inputs";
    seeded.student = student;
    seeded.seeded = true;
    seeded.limitSeconds = runSeconds(seededRuns);
    seeded.run = [judge, call, salt, seededRuns](const CaseContext& ctx) {
        const std::vector<uint64_t> keys = inputKeys(ctx.seed, salt, seededRuns);
        return judge(call(ctx.runner, keys, ctx.limitSeconds), keys);
    };
    return {course, handMade, seeded};
}

std::vector<GateCase> stressCases() {
    GateCase c;
    c.name = "seeded";
    c.what = std::to_string(kStressRuns) + " fresh diamonds on seeded inputs, d_mid zeroed and the upstream and one "
             "branch held in each";
    c.seeded = true;
    c.limitSeconds = runSeconds(kStressRuns + 1, kUpstreamHoldMs + kBranchHoldMs);
    c.run = [](const CaseContext& ctx) -> GateResult {
        const char* id = "52.stress";
        const std::vector<uint64_t> keys = inputKeys(ctx.seed, kSaltStress, kStressRuns);
        const auto reply = stress(ctx.runner, keys, ctx.limitSeconds);
        if (!reply.ok()) return GateResult::fail(id, reply.problem);
        // The holds are real when each right run takes at least both of them.
        std::string times;
        for (float t : reply.result.runMs) times += (times.empty() ? "" : " ") + grading::formatText("%.1f", t);
        grading::recordFigure("stress_run_ms", times);
        const std::vector<std::vector<float>> outs = perRun(reply.result.out, keys.size());
        std::vector<day52::StressRun> runs;
        for (size_t r = 0; r < keys.size(); ++r) runs.push_back({outs[r], reference(keys[r]), heldBranch(static_cast<int>(r))});
        const GateResult right = day52::checkStress(runs, {kUpstreamHoldMs, kBranchHoldMs});
        if (!right.passed) return right;
        return day52::checkEndsOnStream0(id, reply.result.leftRunning);
    };
    return {c};
}

std::vector<GateCase> noTimingCases() {
    GateCase c;
    c.name = "dependency_events";
    c.what = "cudaEventElapsedTime on the fork and branchDone events";
    c.student = false;
    c.limitSeconds = runSeconds(0);
    c.run = [](const CaseContext& ctx) -> GateResult {
        const char* id = "52.no_timing";
        const auto reply = noTiming(ctx.runner, ctx.limitSeconds);
        if (!reply.ok()) return GateResult::fail(id, reply.problem);
        const std::vector<std::string> errors = splitNames(reply.result.elapsedErrors);
        const std::vector<std::string> cleared = splitNames(reply.result.slotCleared);
        const std::vector<std::string> after = splitNames(reply.result.slotAfterClear);
        if (errors.size() != static_cast<size_t>(day52::kBranches) || cleared.size() != errors.size() ||
            after.size() != errors.size()) {
            return GateResult::fail(id, "the runner reported " + std::to_string(errors.size()) + " probes, want " +
                                            std::to_string(day52::kBranches));
        }
        std::vector<day52::ElapsedProbe> probes;
        for (size_t j = 0; j < errors.size(); ++j) {
            probes.push_back({"fork, branchDone[" + std::to_string(j) + "]", errors[j], after[j]});
            std::cout << "cudaEventElapsedTime(" << probes.back().events << "): " << errors[j]
                      << "; cudaGetLastError() then returned " << cleared[j] << ", and after it " << after[j] << "\n";
        }
        return day52::checkNoTiming(probes);
    };
    return {c};
}

// One shape timed, on `runner`, with its timed work checked: run 0's output
// against the host, every later run's in the runner against the course's
// enqueueSerial of its own input.
struct TimedShape {
    grading::Reply<day52::protocol::Timing> reply;
    GateResult right;
};

TimedShape timeOneShape(const std::string& runner, const std::string& shape, uint64_t warmupKey, uint64_t timedKey,
                        double limitSeconds, bool exclusiveGpu) {
    const std::string name = day52::protocol::enqueueOf(shape);
    TimedShape t{timing(runner, shape, warmupKey, timedKey, limitSeconds, exclusiveGpu), GateResult::pass("52.overlap")};
    if (!t.reply.ok()) {
        t.right = GateResult::fail("52.overlap", name + " was not timed: " + t.reply.problem);
        return t;
    }
    const day52::protocol::TimingResult& r = t.reply.result;
    if (r.ms.size() != static_cast<size_t>(day52::kTimedRuns)) {
        t.right = GateResult::fail("52.overlap", "the runner returned " + std::to_string(r.ms.size()) + " times for " +
                                                     std::to_string(day52::kTimedRuns) + " timed runs of " + name);
        return t;
    }
    t.right = day52::checkTimedDiamond(r.out, reference(timedKey), name);
    if (t.right.passed) t.right = day52::checkTimedRuns(name, r.runFirstDifference, day52::kTimedRuns);
    return t;
}

// 52.overlap's times, by the grader's clock (clockedRunMs): the course's
// enqueueSerial in the course runner and the submission's enqueueDiamond in
// its own, kOverlapMeasures measures each, in turn, calls of
// kClockedDiamondRuns runs and twice that. Both runners get the same inputs
// call for call, so the serial call's proofs are what the diamond's must be
// (a diamond call the serial side made no twin of gets one, untimed).
//
// A class times the serial side once (InstructorTiming): its instructor.day52
// keeps the serial measures and each call's proofs; a student's test reads
// them back and measures only the diamond.
constexpr int kOverlapMeasures = 3;
constexpr int kClockedDiamondRuns = 10;  // about 18 ms of diamonds (1.8 ms each, docs/performance.md)

double clockedSeconds(int runs) { return runSeconds(runs + 2); }

struct ClockedOverlap {
    std::vector<float> serialMs, diamondMs;
    GateResult right = GateResult::pass("52.overlap");
};

// `measureSerial`/`measureDiamond`: which sides this process times.
ClockedOverlap clockedOverlap(const CaseContext& ctx, bool measureSerial, bool measureDiamond) {
    ClockedOverlap o;
    const bool keepSerial = ctx.instructorTiming == grading::InstructorTiming::MeasureOnce;
    std::map<std::string, std::vector<double>> serialProofs;  // by call name
    // The serial call's proofs for a diamond call: measured here, kept by the
    // class, or made now by an untimed twin call.
    const auto proofsOfSerial = [&](const std::string& name, uint64_t key, int runs) -> grading::Expected<bool> {
        if (serialProofs.count(name) != 0) return true;
        std::vector<double> kept;
        if (!measureSerial && grading::loadValues(serialBaselineKey(ctx, name), kept)) {
            serialProofs[name] = kept;
            return true;
        }
        const auto twin =
            clocked(ctx.courseRunner, day52::protocol::kShapeSerial, key, runs, clockedSeconds(runs), false);
        if (!twin.ok()) return grading::Error{"the course's enqueueSerial on the same inputs: " + twin.problem};
        serialProofs[name] = twin.result.proofs;
        return true;
    };
    const auto measureShape = [&](const std::string& runner, const std::string& shape, int measure,
                                  std::vector<float>& into) -> GateResult {
        std::map<int, int> made;  // calls of each size so far in this measure
        const grading::ClockedCall call = [&](int runs) -> grading::Expected<double> {
            const std::string name = "52.overlap/clocked/" + std::to_string(measure) + "/" + std::to_string(runs) + "/" +
                                     std::to_string(made[runs]++);
            const uint64_t key = grading::caseSeed(ctx.seed, name);
            const auto got = clocked(runner, shape, key, runs, clockedSeconds(runs), ctx.exclusiveGpu);
            if (!got.ok()) return grading::Error{got.problem};
            if (shape == day52::protocol::kShapeSerial) {
                serialProofs[name] = got.result.proofs;
                if (keepSerial) grading::keepValues(serialBaselineKey(ctx, name), got.result.proofs);
                return got.seconds();
            }
            const grading::Expected<bool> twin = proofsOfSerial(name, key, runs);
            if (!twin) return grading::Error{twin.error()};
            const GateResult proof = day52::checkClockedDiamond(got.result.proofs, serialProofs[name]);
            if (!proof.passed) return grading::Error{proof.message};
            return got.seconds();
        };
        const uint64_t order = grading::caseSeed(ctx.seed, "52.overlap/order/" + std::to_string(measure));
        const grading::Expected<float> ms = grading::clockedRunMs(call, kClockedDiamondRuns, order);
        if (!ms) {
            return GateResult::fail("52.overlap",
                                    std::string(day52::protocol::enqueueOf(shape)) + " by the grader's clock: " + ms.error());
        }
        into.push_back(*ms);
        return GateResult::pass("52.overlap");
    };
    for (int m = 0; m < kOverlapMeasures; ++m) {
        if (measureSerial) {
            o.right = measureShape(ctx.courseRunner, day52::protocol::kShapeSerial, m, o.serialMs);
            if (!o.right.passed) return o;
        }
        if (measureDiamond) {
            o.right = measureShape(ctx.runner, day52::protocol::kShapeDiamond, m, o.diamondMs);
            if (!o.right.passed) return o;
        }
    }
    return o;
}

std::vector<GateCase> overlapCases() {
    GateCase c;
    c.name = "seeded";
    c.what = "serial ms / diamond ms by the grader's clock, medians of " + std::to_string(kOverlapMeasures) +
             " measures of " + std::to_string(kClockedDiamondRuns) + " and " + std::to_string(2 * kClockedDiamondRuns) +
             " runs, after " + std::to_string(day52::kTimedRuns) + " checked timed runs each, on seeded inputs";
    c.seeded = true;
    c.baselineOncePerClass = true;
    c.limitSeconds = 2 * timingSeconds() +
                     3 * kOverlapMeasures * grading::kClockedAttempts *
                         (clockedSeconds(kClockedDiamondRuns) + clockedSeconds(2 * kClockedDiamondRuns));
    c.run = [](const CaseContext& ctx) -> GateResult {
        const char* id = "52.overlap";
        if (ctx.courseRunner.empty()) return GateResult::fail(id, "no course runner to time the serial version in");
        const uint64_t warmupKey = inputKey(ctx.seed, kSaltOverlap, 0);
        const uint64_t timedKey = inputKey(ctx.seed, kSaltOverlap, 1);
        // A class's instructor.day52 times the serial side alone and keeps
        // it; a student's test reads it back, or times both where none was kept.
        const bool measureOnce = ctx.instructorTiming == grading::InstructorTiming::MeasureOnce;
        std::vector<float> keptSerialMs;
        const bool readBack = ctx.instructorTiming == grading::InstructorTiming::ReadBackOnce &&
                              grading::loadValues(serialBaselineKey(ctx, "ms"), keptSerialMs);
        // The serial baseline in the course runner, which links no student
        // code; the submitted diamond in its own runner.
        if (!measureOnce) {
            const TimedShape diamond = timeOneShape(ctx.runner, day52::protocol::kShapeDiamond, warmupKey, timedKey,
                                                    ctx.limitSeconds / 2, ctx.exclusiveGpu);
            if (!diamond.right.passed) return diamond.right;
        }
        if (!readBack) {
            const TimedShape serial = timeOneShape(ctx.courseRunner, day52::protocol::kShapeSerial, warmupKey, timedKey,
                                                   ctx.limitSeconds / 2, ctx.exclusiveGpu);
            if (!serial.right.passed) return serial.right;
        }
        // The checked timed runs above say the timed work is right; the
        // times the gate compares are the grader's.
        ClockedOverlap clockedTimes = clockedOverlap(ctx, !readBack, !measureOnce);
        if (!clockedTimes.right.passed) return clockedTimes.right;
        const CourseMachine machine = courseMachine(ctx);  // instructor.day52 keeps it for the class
        if (measureOnce) {
            grading::keepValues(serialBaselineKey(ctx, "ms"), clockedTimes.serialMs);
            grading::recordFigure("serial_ms", grading::formatText("%.4f", grading::summarize(clockedTimes.serialMs).medianMs));
            return GateResult::pass(id);
        }
        if (readBack) clockedTimes.serialMs = keptSerialMs;
        const double serialMs = grading::summarize(clockedTimes.serialMs).medianMs;
        const double diamondMs = grading::summarize(clockedTimes.diamondMs).medianMs;
        day52::OverlapVerdict v = day52::checkOverlap(serialMs, diamondMs, machine.smCount);
        const std::string timed = readBack ? " (the course's serial timed once for the class)" : " (timed interleaved)";
        v.note += timed;
        if (!v.result.passed) v.result.message += timed;
        grading::recordFigure("overlap_ratio", grading::formatText("%.3f", v.ratio));
        grading::recordFigure("sm_count", std::to_string(machine.smCount));
        grading::recordFigure("serial_ms", grading::formatText("%.4f", serialMs));
        grading::recordFigure("diamond_ms", grading::formatText("%.4f", diamondMs));
        std::cout << "overlap on " << machine.device << ": " << v.note << "\n";
        if (!v.gated && v.result.passed) {
            reportNotGated("52.overlap " + v.note);
            return GateResult::pass(id);
        }
        return v.result;
    };
    return {c};
}

// The kernels of one run on the GPU's timer (TimingResult's timelines), as
// ms from the run's first start: a table and the figures
// event_<prefix><kernel>_begin_ms / _end_ms the pictures draw.
void timeline(const std::string& shape, const std::string& prefix, const std::vector<uint64_t>& ns) {
    static const char* const kKernels[] = {"upstream", "branch0", "branch1", "branch2", "branch3", "join"};
    constexpr size_t kCount = std::size(kKernels);
    if (ns.size() != 2 * kCount) {
        std::cout << "  " << shape << " timeline: not recorded\n";
        return;
    }
    uint64_t first = ~0ull;
    for (size_t k = 0; k < kCount; ++k) first = std::min(first, ns[k]);
    std::cout << "  " << shape << " timeline, ms from its first kernel's start:";
    for (size_t k = 0; k < kCount; ++k) {
        const uint64_t start = ns[k], end = ns[kCount + k];
        if (start == ~0ull || end < start) {
            std::cout << " " << kKernels[k] << " -";
            continue;
        }
        const double begin = static_cast<double>(start - first) / 1e6, finish = static_cast<double>(end - first) / 1e6;
        std::cout << grading::formatText(" %s %.3f-%.3f", kKernels[k], begin, finish);
        grading::recordFigure("event_" + prefix + kKernels[k] + "_begin_ms", grading::formatText("%.4f", begin));
        grading::recordFigure("event_" + prefix + kKernels[k] + "_end_ms", grading::formatText("%.4f", finish));
    }
    std::cout << "\n";
}

// The course's printout: the timing table, then the broken order's race.
// Observations only. The broken order and the serial version are the
// course's own code, so they must run; the submitted diamond need not.
// The table is 52.overlap's checked timing calls, asked again: a class's
// day test, which runs the gate first, reads the diamond's back, and the
// serial version's, timed once for the class by instructor.day52.
void report(const CaseContext& ctx) {
    const uint64_t warmupKey = inputKey(ctx.seed, kSaltOverlap, 0);
    const uint64_t timedKey = inputKey(ctx.seed, kSaltOverlap, 1);
    // The serial version where the course's code is timed: no student code beside it.
    const std::string& serialRunner = ctx.courseCodeRunner();
    const TimedShape diamondShape =
        timeOneShape(ctx.runner, day52::protocol::kShapeDiamond, warmupKey, timedKey, timingSeconds(), true);
    const TimedShape serialShape =
        timeOneShape(serialRunner, day52::protocol::kShapeSerial, warmupKey, timedKey, timingSeconds(), true);
    if (diamondShape.reply.ok() && serialShape.reply.ok()) {
        const grading::TimingStats serial = grading::summarize(serialShape.reply.result.ms);
        const grading::TimingStats diamond = grading::summarize(diamondShape.reply.result.ms);
        std::cout << "\n"
                  << day52::timingTable(serial, diamond, diamondShape.reply.device().device,
                                        courseMachine(ctx).smCount);
        if (!diamondShape.right.passed) std::cout << "  (" << diamondShape.right.message << ")\n";
        grading::recordFigure("serial_ms", grading::formatText("%.4f", serial.medianMs));
        grading::recordFigure("diamond_ms", grading::formatText("%.4f", diamond.medianMs));
        if (diamond.medianMs > 0.0f) {
            grading::recordFigure("overlap_ratio", grading::formatText("%.3f", serial.medianMs / diamond.medianMs));
        }
        timeline("diamond", "", diamondShape.reply.result.timelineNs);
        timeline("serial", "serial_", serialShape.reply.result.timelineNs);
    } else {
        std::cout << "\nno timings: " << (diamondShape.reply.ok() ? serialShape.reply.problem : diamondShape.reply.problem)
                  << "\n";
    }

    const uint64_t raceKey = inputKey(ctx.seed, kSaltReport, 2);
    const auto b = broken(ctx.runner, raceKey, runSeconds(2), true);
    if (!b.ok()) throw std::runtime_error("the course's broken order did not run: " + b.problem);
    const std::vector<float>& want = reference(raceKey);
    if (b.result.out.size() != want.size()) {
        throw std::runtime_error("the broken order returned " + std::to_string(b.result.out.size()) + " values, want " +
                                 std::to_string(want.size()));
    }
    const size_t wrong = day52::countMismatches(b.result.out, want, day52::kRelTolerance);
    grading::recordFigure("race_wrong_elements", std::to_string(wrong));
    std::cout << day52::raceObservation(wrong, want.size()) << std::endl;
}

// The report's figures as the HTML page draws them.
void reportCharts(grading::Day& day) {
    day.heading("Day 52: events and fork-join streams");
    day.chart(grading::ChartSpec("day52-shapes")
        .title("Serial against the diamond")
        .caption("Median ms of the four kernels run one after another and as the fork-join diamond "
            "(figures serial_ms, diamond_ms)[; serial / diamond = {overlap_ratio}x].")
        .missing("no serial or diamond time (serial_ms, diamond_ms) was recorded")
        .figures("(serial|diamond)_ms", {"name"}, "ms")
        .vegaLite(R"vl({"width": 460, "height": {"step": 26},
 "encoding": {"y": {"field": "name", "type": "nominal", "sort": ["serial", "diamond"], "title": null},
              "x": {"field": "ms", "type": "quantitative", "title": "ms (median)"}},
 "layer": [{"mark": {"type": "bar", "tooltip": true},
            "encoding": {"color": {"field": "name", "type": "nominal", "sort": ["serial", "diamond"], "legend": null}}},
           {"mark": {"type": "text", "align": "left", "dx": 3},
            "encoding": {"text": {"field": "ms", "format": ".4f"}}}]})vl"));
    // A bar per kernel with both ends recorded: the diamond's kernels first,
    // then the serial run's, each in start order.
    day.chart(grading::ChartSpec("day52-timeline")
        .title("Timeline of the diamond's kernels, and the serial run's")
        .caption("Each kernel's first start and last end on the GPU's timer, one untimed run of each shape "
            "(figures event_<kernel>_begin_ms, _end_ms; serial_ for the serial run).")
        .missing("no kernel timeline was recorded (figures event_<kernel>_begin_ms and _end_ms); the serial and "
            "diamond totals are above")
        .figures("event_(\\w+)_(begin|end)_ms", {"kernel", "edge"}, "ms")
        .vegaLite(R"vl({"width": 460, "height": {"step": 24},
 "transform": [{"pivot": "edge", "value": "ms", "groupby": ["kernel"], "op": "max"},
               {"filter": "isValid(datum.begin) && isValid(datum.end)"},
               {"calculate": "(indexof(datum.kernel, 'serial_') >= 0 ? 1e9 : 0) + datum.begin", "as": "order"}],
 "mark": {"type": "bar", "tooltip": true},
 "encoding": {"y": {"field": "kernel", "type": "nominal", "sort": {"field": "order"}, "title": null},
              "x": {"field": "begin", "type": "quantitative", "title": "ms from the run's first kernel"},
              "x2": {"field": "end"},
              "color": {"field": "kernel", "legend": null}}})vl"));
}

}  // namespace

grading::Day grading::declareDay() {
    grading::Day day("day52");
    using grading::GateSpec;
    day.gate(GateSpec("52.diamond").title("fork-join result, launched with the course's shape").points(3),
             runsCases("52.diamond", "the submitted diamond", true, kSaltDiamond, kSeededDiamonds, diamonds));
    day.gate(GateSpec("52.serial")
                 .title("the course's serial version gives the same result")
                 .points(1)
                 .grades(grading::Grades::Course),
             runsCases("52.serial", "the course's serial version", false, kSaltSerial, kSeededSerials, serial));
    day.gate(GateSpec("52.stress").title("ordering holds under adversarial timing").points(4), stressCases());
    day.gate(GateSpec("52.no_timing")
                 .title("the course's disable-timing events are not stopwatches")
                 .points(1)
                 .grades(grading::Grades::Course),
             noTimingCases());
    day.gate(GateSpec("52.overlap").title("branches overlap").points(2).prerequisites({"52.diamond"}).timed(true),
             overlapCases());
    day.observe("report", 2 * timingSeconds() + runSeconds(2), report);
    reportCharts(day);
    return day;
}
