#pragma once
// A day, declared once: its gates (id, title, points, which code they grade,
// what they require, whether they measure time), the cases each gate runs
// on, and the observations its report prints. The generic driver
// (harness/gtest/src/driver.cpp) turns the declaration into every suite:
// the reference and the submission graded gate by gate, the untouched stub
// scored, each planted bug and hostile submission held to the gate it must
// fail, the ctest registration, the gates table the report reads and the
// charts table the HTML page draws the report's figures from.
//
//   grading::Day grading::declareDay() {
//       grading::Day day("zdemo");
//       day.gate(grading::GateSpec("zdemo.values").title("every value scaled").points(1), valueCases());
//       day.observe("report", 120, printTables);  // records the figures scale_ms_<n>
//       day.heading("Day zdemo: scaling a vector");
//       day.chart(grading::ChartSpec("zdemo-scale").title("One scale per size").figures("scale_ms_(\\w+)", {"n"}, "ms")...);
//       return day;
//   }
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "harness/expected.h"
#include "harness/gate.h"

namespace grading {

// Whose code a gate grades. A Course gate checks the course's own code (the
// harness's and the course's contract); it runs in the reference suite only
// and earns a submission nothing.
enum class Grades { Student, Course };

// A gate's declaration, each field set by name:
//
//   GateSpec("zdemo.timing").title("timings are real, of the graded work").points(1)
//       .prerequisites({"zdemo.values"}).timed(true)
//
// Each setter returns the spec; each getter of the same name reads it.
class GateSpec {
public:
    explicit GateSpec(std::string id) : id_(std::move(id)) {}

    // "zdemo.values", as grading.md names it
    const std::string& id() const { return id_; }

    // one line
    const std::string& title() const { return title_; }
    GateSpec& title(std::string title) {
        title_ = std::move(title);
        return *this;
    }

    int points() const { return points_; }
    GateSpec& points(int points) {
        points_ = points;
        return *this;
    }

    // Student unless set.
    Grades grades() const { return grades_; }
    GateSpec& grades(Grades grades) {
        grades_ = grades;
        return *this;
    }

    // Gates that must pass for this one to be graded; otherwise it reads
    // "not graded: requires <id>" and earns 0 (a vacuous pass earns nothing).
    const std::vector<std::string>& prerequisites() const { return prerequisites_; }
    GateSpec& prerequisites(std::vector<std::string> ids) {
        prerequisites_ = std::move(ids);
        return *this;
    }

    // Measures time: its calls hold the GPU exclusively.
    bool timed() const { return timed_; }
    GateSpec& timed(bool timed) {
        timed_ = timed;
        return *this;
    }

    // Gradescope's; "visible" unless set.
    const std::string& visibility() const { return visibility_; }
    GateSpec& visibility(std::string visibility) {
        visibility_ = std::move(visibility);
        return *this;
    }

    // Earns the fraction of its points its cases score (GateResult::score,
    // the lowest of them), not all or nothing: a speed gate's ramp.
    bool scored() const { return scored_; }
    GateSpec& scored(bool scored) {
        scored_ = scored;
        return *this;
    }

    // In a class, this gate runs after these gates (declared before it,
    // graded from the student's code), in the same test process as they or a
    // later one: its cases ask the same runner calls, and read back the
    // answers, or the hangs, those kept (RunnerCall::answerShared), where
    // run beside them each would ask, or wait out the hang, again.
    const std::vector<std::string>& after() const { return after_; }
    GateSpec& after(std::vector<std::string> ids) {
        after_ = std::move(ids);
        return *this;
    }

private:
    std::string id_;
    std::string title_;
    int points_ = 0;
    Grades grades_ = Grades::Student;
    std::vector<std::string> prerequisites_;
    bool timed_ = false;
    std::string visibility_ = "visible";
    bool scored_ = false;
    std::vector<std::string> after_;
};

// A seeded case's own seed: SHA-256 of `purpose` (what it is for: the day,
// the gate or call, the input's name) and the grading seed, the first 64
// bits. Every day derives its inputs' seeds here; a runner handed one learns
// nothing of the grading seed or of another case's input.
uint64_t caseSeed(uint64_t seed, const std::string& purpose);

// How a case times the baseline it compares a submission with: a speed
// gate's instructor rounds (speedCase), a case's course baseline
// (GateCase::baselineOncePerClass).
enum class InstructorTiming {
    Interleaved,   // in turn with the submission's (every suite)
    MeasureOnce,   // a class's instructor.<day> test: the baseline alone, kept for the class
    ReadBackOnce,  // a class's student-day test: the baseline the class kept, else Interleaved
};

// What a case is handed when it runs.
struct CaseContext {
    std::string runner;   // the runner under test
    uint64_t seed = 0;    // the grading seed; seeded cases derive their inputs from it
    double limitSeconds;  // this case's time limit for its runner calls
    bool exclusiveGpu;    // the gate is timed: its calls hold the GPU exclusively
    // The instructor solution's runner, for a case that compares against it
    // (a speed gate); empty where the tree has no solution.
    std::string referenceRunner = {};
    // The course's own runner: the course's code and no student code (the
    // exercise answers "not in this runner"). A baseline that a gate
    // compares the submission against is timed there, never beside
    // submitted code; empty where the day builds none.
    std::string courseRunner = {};
    // Whether the runner under test is the instructor's, where a day's
    // instructor-only extras are.
    bool instructorsRunner() const { return !referenceRunner.empty() && runner == referenceRunner; }
    // Where the course's own code is timed: the course runner, or, where the
    // day or the tree builds none (a student kit), the runner under test.
    const std::string& courseCodeRunner() const { return courseRunner.empty() ? runner : courseRunner; }
    // The gate's details reach the student (its visibility is not "hidden"):
    // a failure may then be shrunk to a small input and shown (shrink.h).
    // A hidden gate's input stays hidden, smaller or not.
    bool showsDetails = true;
    InstructorTiming instructorTiming = InstructorTiming::Interleaved;
};

struct GateCase {
    std::string name;           // unique within the gate, [A-Za-z0-9_]
    std::string what;           // how messages name it: "edge mapping on rmat"
    bool student = true;        // runs the student's code (false: the course's; reference suite only)
    bool seeded = false;        // its inputs come from the seed (the seed is then named)
    double limitSeconds = 30;   // one owner of the case's time: its runner calls get this
    // Some of its runner calls may hold the GPU exclusively though the gate is
    // not timed (day 38's deepest searches). Its test then runs with the timed
    // gates (ctest label "exclusive"), where waiting for the GPU to drain costs
    // little, not beside a class's other tests.
    bool exclusiveGpu = false;
    // A class times the baseline it compares with once (InstructorTiming):
    // its instructor.<day> test runs the case too. Speed gates' cases always.
    bool baselineOncePerClass = false;
    std::function<GateResult(const CaseContext&)> run;
};

struct DayGate {
    GateSpec spec;
    std::vector<GateCase> cases;
};

// The order a gate's cases are registered in, which gtest's shards deal them
// out by: the declared order, except that the cases holding the GPU
// exclusively come last. A graded process then runs its shard's cases in an
// order the grading seed draws (gtest's shuffle, driver.cpp); the harness's
// own expectation tests (stub, planted, hostile) keep this order.
std::vector<const GateCase*> runOrder(const DayGate& g);

// A picture of the report's figures on the HTML page (harness/grading's
// grade_html), each field set by name, as a GateSpec is:
//
//   ChartSpec("zdemo-shapes").title("One launch against many").caption(...).missing(...)
//       .figures("(one|many)_ms", {"name"}, "ms").vegaLite(R"({...})")
//
// Every numeric figure of the day whose name matches `figures` is one row of
// its data: the capture groups fill `fields` in order (a capture of digits
// only as a number), the figure's value fills `value`; the rows come in the
// figures' name order. `vegaLite` is the spec without its "data", which the
// page adds; it does the rest (labels, order, scales).
class ChartSpec {
public:
    explicit ChartSpec(std::string id) : id_(std::move(id)) {}

    // unique in the page, [a-z0-9-]
    const std::string& id() const { return id_; }

    // one line
    const std::string& title() const { return title_; }
    ChartSpec& title(std::string title) {
        title_ = std::move(title);
        return *this;
    }

    // Under the chart. "[text {figure} text]" shows that figure's value in
    // the text, or drops out where it was not recorded.
    const std::string& caption() const { return caption_; }
    ChartSpec& caption(std::string caption) {
        caption_ = std::move(caption);
        return *this;
    }

    // Where no figure matches, the page says "not measured: <missing>".
    const std::string& missing() const { return missing_; }
    ChartSpec& missing(std::string missing) {
        missing_ = std::move(missing);
        return *this;
    }

    // An ECMAScript regular expression matched against a whole figure name;
    // its capture groups fill `fields`, the figure's value `value`.
    const std::string& figures() const { return figures_; }
    const std::vector<std::string>& fields() const { return fields_; }
    const std::string& value() const { return value_; }
    ChartSpec& figures(std::string pattern, std::vector<std::string> fields, std::string value) {
        figures_ = std::move(pattern);
        fields_ = std::move(fields);
        value_ = std::move(value);
        return *this;
    }

    // JSON without '<' (the page inlines it in a <script>; a JSON string can escape one).
    const std::string& vegaLite() const { return vegaLite_; }
    ChartSpec& vegaLite(std::string spec) {
        vegaLite_ = std::move(spec);
        return *this;
    }

private:
    std::string id_;
    std::string title_;
    std::string caption_;
    std::string missing_;
    std::string figures_;
    std::vector<std::string> fields_;
    std::string value_;
    std::string vegaLite_;
};

// How small a gate's shrunk counterexample must be (shrink.h): the size is
// the number `sizePattern`'s first group reads after "smallest failing input
// found" in the message. Every planted bug that fails the gate is held to it
// unless it says why its bug needs a larger input (LARGE_COUNTEREXAMPLE).
struct CounterexampleBound {
    std::string gate;         // "zdemo.values"
    std::string sizePattern;  // "n = ([0-9]+)"
    uint64_t max = 0;         // 256
};

struct Observation {
    std::string name;           // "report"
    double limitSeconds = 120;
    std::function<void(const CaseContext&)> run;  // prints its tables; throws when it cannot
};

class Day {
public:
    explicit Day(std::string name) : name_(std::move(name)) {}

    void gate(GateSpec spec, std::vector<GateCase> cases);
    void observe(std::string name, double limitSeconds, std::function<void(const CaseContext&)> run);
    // The HTML page's heading for the day's section (its name where unset),
    // and the charts it draws there, in this order.
    void heading(std::string text) { heading_ = std::move(text); }
    void chart(ChartSpec spec);
    void shrinksTo(CounterexampleBound bound) { bounds_.push_back(std::move(bound)); }

    const std::string& name() const { return name_; }
    const std::vector<CounterexampleBound>& counterexampleBounds() const { return bounds_; }
    const std::vector<DayGate>& gates() const { return gates_; }
    const std::vector<Observation>& observations() const { return observations_; }
    const std::string& heading() const { return heading_; }
    const std::vector<ChartSpec>& charts() const { return charts_; }
    const DayGate* find(const std::string& id) const;
    // The declaration of gate `id`, to change (the course's policy); nullptr when none.
    GateSpec* spec(const std::string& id);

private:
    std::string name_;
    std::vector<DayGate> gates_;
    std::vector<Observation> observations_;
    std::string heading_;
    std::vector<ChartSpec> charts_;
    std::vector<CounterexampleBound> bounds_;
};

// Why gate `id` of `day` cannot pass any more, given the gates of which a
// case already failed (`failed`): "<id> failed", or "requires <r>, which
// failed" where a gate it requires, directly or through another, failed; ""
// while it still can. A class's day test then runs none of the gate's cases
// that hold the GPU exclusively: the report already grades it FAIL or NOT
// GRADED (0 points), and its timing would only keep other students waiting.
std::string cannotPass(const Day& day, const std::string& id, const std::set<std::string>& failed);

// The course's policy (grading.json; cmake/policy.cmake checks it at
// configure): each gate it names gets its points, visibility and speed
// ramp, where `day` declares that gate; gates of other days are skipped.
// An error names what is wrong (a file that is not the checked policy).
Expected<bool> applyPolicy(Day& day, const std::string& policyJson);
// A speed gate's ramp: the policy's for `id` where it set one, else `declared`.
SpeedRamp speedRampFor(const std::string& id, const SpeedRamp& declared);

// Each day defines it (harness/<day>/day.cpp); its test binary's main calls it.
Day declareDay();

// A speed gate's case: `measure` (one runner call's timed runs, in ms, or why
// there are none) made on the instructor's runner and the student's in turn,
// `rounds` times, so neither is timed at a quieter moment of a shared GPU than
// the other; then the medians' ratio scored on `ramp` (scoreSpeed). Fails,
// naming why, when either side has no times; scores 0, saying so, where the
// tree has no instructor runner to compare against (the student kit).
// A class times the instructor once (ctx.instructorTiming): its
// instructor.<day> test measures the instructor's `rounds` alone, before any
// student's runner starts, and keeps them in the class's answer folder
// (answer_cache.h), keyed by the gate, `what`, `rounds`, the seed, the
// instructor's runner and the GPU (CUDA_VISIBLE_DEVICES); each student's day
// test then measures the student's rounds against those, or both in turn
// where none were kept.
using MeasureRuns = std::function<Expected<std::vector<float>>(const std::string& runner)>;
// Where a class keeps a baseline timed once: `purpose` (the gate, what it
// times) with all else it depends on, the seed, the runner that timed it and
// the GPU (CUDA_VISIBLE_DEVICES: a class spread over GPUs times it on each).
std::string classBaselineKey(const CaseContext& ctx, const std::string& purpose, const std::string& runner);
GateResult speedCase(const CaseContext& ctx, const std::string& id, const std::string& what, int rounds,
                     const MeasureRuns& measure, const SpeedRamp& ramp = {});

// One run's time by the grader's clock, never the runner's: `call(runs)`
// makes one runner call that does the timed work `runs` times over and
// answers with a digest of what it produced, which `call` checks (so the
// answer cannot come before the work is done), and returns the call's
// seconds (Reply::seconds). After a short call, discarded (a runner's first
// call of a kind loads its kernels), two calls, of `runs` and of twice that,
// in an order `orderSeed` draws; their difference over `runs` is one run, and
// what each call costs besides the runs (decoding, allocating, making the
// input, the proof) cancels. A pair whose difference is not positive is
// taken again, kClockedAttempts pairs in all; a failed call (a wrong proof)
// ends the measure at once. The GPU is held exclusively from the first call
// to the last (ExclusiveGpuScope): the clock sees whole calls, so their
// uploads and checks must not wait behind other runners' kernels either.
using ClockedCall = std::function<Expected<double>(int runs)>;
constexpr int kClockedAttempts = 3;
Expected<float> clockedRunMs(const ClockedCall& call, int runs, uint64_t orderSeed);

// Repetition until the figures are steady: `measure` is one runner call's
// timed runs as one set per figure; calls repeat, each set growing, at least
// `minCalls` times (a figure pools several moments of the GPU and the host,
// never one call's), then until every set's IQR is within `targetSpread` of
// its median or `maxCalls` calls were made (a budget: on a noisy GPU the
// spread printed beside the median says how far it got). The sets as
// gathered, or the first call's error. The GPU is held exclusively throughout
// (runner_client.h's ExclusiveGpuScope), so make timed calls only.
// A caller sizes its time limit by kSteadyMaxCalls.
using MeasureSets = std::function<Expected<std::vector<std::vector<float>>>()>;
constexpr int kSteadyMinCalls = 5;
constexpr int kSteadyMaxCalls = 8;
Expected<std::vector<std::vector<float>>> sampleUntilSteady(const MeasureSets& measure, double targetSpread = 0.02,
                                                          int minCalls = kSteadyMinCalls,
                                                          int maxCalls = kSteadyMaxCalls);

// A figure worth keeping beside a verdict or an observation: a gtest
// property (it lands in the XML and the report) and a printed line.
void recordFigure(const std::string& key, const std::string& value);

// An instructor's extra input files for a day (cmake/Grading.cmake's
// grading_instructor_files writes the list, one path a line), each with the
// case name it is graded under: "file<k>_<basename>", k from 0, the name's
// other characters '_'. Nothing when the list is absent or empty.
struct InstructorFile {
    std::string path;
    std::string caseName;
};
std::vector<InstructorFile> instructorFiles(const std::string& listFile);

}  // namespace grading
