// The day driver's suites as gtest tests: a gate's cases over a runner
// (reference, submission), every student gate on the stub, a planted bug or
// hostile file against its expectation, a day's observation (its report).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "driver.h"
#include "harness/gpu_state.h"
#include "harness/runner_client.h"
#include "harness/shrink.h"
#include "harness/testing.h"
#include "harness/text.h"

namespace grading::driver {

std::string contextOf(const GateCase& c, uint64_t seed) {
    return c.what + (c.seeded ? " (seed " + std::to_string(seed) + ")" : "");
}

// Whether this process's timed cases hold the GPU exclusively while they
// measure (gpu_slots.h), while the machine's other tests go on with their
// host work. The stub's test does not: its timing gates fail on what the
// stub computes, never on a time, and an exclusive hold there would stall
// every test running beside it.
bool& timedCasesExclusive() {
    static bool exclusive = true;
    return exclusive;
}

// The instructor's runner, for the cases that compare against it (a speed
// gate); "" where the tree has none.
std::string& referenceRunnerPath() {
    static std::string path;
    return path;
}

// The course's runner, which links no student code: what a gate compares a
// submission against is measured there (a baseline); "" where the day has none.
std::string& courseRunnerPath() {
    static std::string path;
    return path;
}

// How this process's speed gates time the instructor (day.h): a class's
// tests time it once for the class.
InstructorTiming& instructorTiming() {
    static InstructorTiming timing = InstructorTiming::Interleaved;
    return timing;
}

CaseContext contextFor(const std::string& runner, const DayGate& g, const GateCase& c, uint64_t seed) {
    return {runner,
            seed,
            c.limitSeconds,
            g.spec.timed() && timedCasesExclusive(),
            referenceRunnerPath(),
            courseRunnerPath(),
            g.spec.visibility() != "hidden",
            instructorTiming()};
}

// GRADING_TRACE=<file>: one line per case appended there (test, gate, case,
// and where its time went, of which how much held the GPU exclusively), to see what
// a suite spends its time on; see
// lab/scripts/trace-summary.sh. An observation (a report) is one line too, its gate
// "observe".
class CaseTrace {
public:
    CaseTrace(std::string gate, std::string name) : gate_(std::move(gate)), name_(std::move(name)) {}
    ~CaseTrace() {
        const char* path = std::getenv("GRADING_TRACE");
        if (path == nullptr || *path == '\0') return;
        const grading::RunnerCallTotals& now = grading::runnerCallTotals();
        const double total = std::chrono::duration<double>(Clock::now() - start_).count();
        const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
        std::ofstream out(path, std::ios::app);
        out << (test ? std::string(test->test_suite_name()) + "." + test->name() : "-") << "\t" << gate_ << "\t"
            << name_ << "\t" << ms(total) << "\t" << ms(now.callSeconds - before_.callSeconds) << "\t"
            << ms(now.slotWaitSeconds - before_.slotWaitSeconds) << "\t" << now.calls - before_.calls << "\t"
            << now.processesStarted - before_.processesStarted << "\t" << epochMs(startedAt_) << "\t"
            << epochMs(std::chrono::system_clock::now()) << "\t"
            << ms(now.exclusiveCallSeconds - before_.exclusiveCallSeconds) << "\n";
    }
    CaseTrace(const CaseTrace&) = delete;
    CaseTrace& operator=(const CaseTrace&) = delete;

private:
    using Clock = std::chrono::steady_clock;
    static long ms(double seconds) { return std::lround(seconds * 1000.0); }
    // Wall-clock start and end, comparable across the suite's processes: the timeline.
    static long long epochMs(std::chrono::system_clock::time_point t) {
        return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    }
    std::string gate_, name_;
    Clock::time_point start_ = Clock::now();
    std::chrono::system_clock::time_point startedAt_ = std::chrono::system_clock::now();
    grading::RunnerCallTotals before_ = grading::runnerCallTotals();
};

// Runs one case; an exception out of the day's code is a failure of the
// case, never of the process.
GateResult runCase(const DayGate& g, const GateCase& c, const std::string& runner, uint64_t seed) {
    const CaseTrace trace(g.spec.id(), c.name);
    const int retriedBefore = grading::runnerCallTotals().retriedAlone;
    GateResult r;
    try {
        r = c.run(contextFor(runner, g, c, seed));
    } catch (const std::exception& e) {
        r = GateResult::fail(g.spec.id(), std::string("the grader could not run this case: ") + e.what());
    }
    r.id = g.spec.id();
    // Calls that failed for a resource a neighbour may hold, then were asked alone (runner_client.h).
    if (const int retried = grading::runnerCallTotals().retriedAlone - retriedBefore) {
        grading::recordFigure("retried_alone", std::to_string(retried));
    }
    return r;
}

bool selected(const GateCase& c, bool studentOnly, const std::vector<std::string>& only) {
    if (studentOnly && !c.student) return false;
    return only.empty() || std::find(only.begin(), only.end(), c.name) != only.end();
}

// A gate over a set of its cases: passes when every case passes; otherwise
// fails with the first failing case's message, named, and runs no more of
// them (they could not change the verdict; after a hang or a fault they
// would only repeat it, at the cost of a time limit each).
struct GateRun {
    bool ran = false;  // false: no case selected, or no device
    GateResult result;  // a scored gate's passing result carries its lowest case's score
};

GateRun runGate(const DayGate& g, const std::string& runner, bool studentOnly, const std::vector<std::string>& only,
                uint64_t seed) {
    GateRun run;
    run.result = GateResult::pass(g.spec.id());
    for (const GateCase& c : g.cases) {
        if (!selected(c, studentOnly, only)) continue;
        run.ran = true;
        const GateResult r = runCase(g, c, runner, seed);
        grading::testing::printGate(r, contextOf(c, seed));
        if (!r.passed) {
            run.result = GateResult::fail(g.spec.id(), contextOf(c, seed) + ": " + r.message);
            return run;
        }
        if (r.score && (!run.result.score || *r.score < *run.result.score)) run.result = r;
    }
    return run;
}

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::string w;
    for (char ch : text + " ") {
        if (ch == ' ' || ch == ',' || ch == '\t') {
            if (!w.empty()) out.push_back(w);
            w.clear();
        } else {
            w += ch;
        }
    }
    return out;
}

grading::Expected<Expectation> readExpectation(const std::string& path) {
    std::ifstream in(path);
    if (!in) return grading::Error{"cannot open the expectation " + path};
    Expectation e;
    std::string line;
    const std::regex keyed(R"(^(?://\s*)?([a-z_]+):\s*(.*?)\s*$)");
    while (std::getline(in, line)) {
        std::smatch m;
        if (!std::regex_match(line, m, keyed)) {
            if (line.rfind("//", 0) == 0 || line.empty()) continue;
            break;  // the code starts: the header is over
        }
        const std::string key = m[1], value = m[2];
        if (key == "what") e.what += (e.what.empty() ? "" : " ") + value;
        else if (key == "fails") e.fails = value;
        else if (key == "expect") e.expect = value;
        else if (key == "passes") {
            // Whitespace between entries; an entry "gate@case,case" keeps its commas.
            std::istringstream entries(value);
            for (std::string entry; entries >> entry;) e.passes.push_back(entry);
        }
        else if (key == "cases") e.cases = words(value);
        else if (key == "attempts") e.attempts = std::max(1, std::atoi(value.c_str()));
        else if (key == "score_below" && !value.empty()) e.scoreBelow = std::atof(value.c_str());
        else if (key == "sanitizer") e.sanitizer = value;
        else if (key == "large_counterexample") e.largeCounterexample = value;
    }
    // "fails: none": a hostile whose trick the harness contains; it must
    // then pass the gates its "passes:" line names.
    if (e.fails == "none" ? e.passes.empty() : (e.fails.empty() || e.expect.empty())) {
        return grading::Error{path + " names no \"fails: <gate>\" and \"expect: <regex>\" (or \"fails: none\" and "
                                     "\"passes: <gate>\") in its header"};
    }
    return e;
}

class Body : public ::testing::Test {
public:
    explicit Body(std::function<void()> body) : body_(std::move(body)) {}
    void TestBody() override { body_(); }

private:
    std::function<void()> body_;
};

template <class Fn>
void registerTest(const std::string& suite, const std::string& name, Fn body) {
    ::testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [body]() -> ::testing::Test* { return new Body(body); });
}

// What a process's cases hold beyond their calls' own slots, each kept
// through a run of cases that need it and given back by the first that does
// not, or at the program's end:
//  - a class's day test's timed turn (gpu_slots.h: TimedTurn), through its
//    cases that may hold the GPU exclusively and its observations;
//  - the exclusive scope that a run of cases holding the GPU exclusively
//    shares (runOrder puts them together).
// The turn is taken first, so a test waiting for one never sits on the GPU.
struct CaseHolds {
    std::unique_ptr<grading::TimedTurn> turn;
    std::optional<grading::ExclusiveGpuScope> scope;
};
CaseHolds& caseHolds() {
    static CaseHolds held;
    return held;
}

void releaseCaseHolds() {
    caseHolds().scope.reset();
    caseHolds().turn.reset();
}

void holdFor(bool classDay, ClassPart part, bool exclusiveGpu) {
    CaseHolds& h = caseHolds();
    if (!exclusiveGpu) h.scope.reset();
    if (classDay && part == ClassPart::Shared) h.turn.reset();
    else if (classDay && !h.turn) h.turn = grading::takeTimedTurn();
    if (exclusiveGpu && !h.scope) h.scope.emplace();
}

void runGateCase(const DayGate& g, const GateCase& c, const Options& o) {
    GRADING_SKIP_WHERE_IT_CANNOT_RUN(o.runner);
    holdFor(o.classDay, classPart(g, c), c.exclusiveGpu);
    const uint64_t seed = grading::testing::gradingSeed();
    const GateResult result = runCase(g, c, o.runner, seed);
    grading::testing::expectGate(result, contextOf(c, seed));
    // The instructor's code against itself earns all of a scored gate.
    if (o.suite != "submission" && g.spec.scored() && result.passed) {
        EXPECT_EQ(result.score.value_or(0.0), 1.0) << g.spec.id() << ": the instructor solution does not earn "
                                                   << "all of it: " << result.message;
    }
    if (g.spec.timed()) std::cout << grading::timedCallGpuLog().summary() << "\n";
}

// The gates of which a case failed in this process (a class's day test).
std::set<std::string>& failedGates() {
    static std::set<std::string> failed;
    return failed;
}

// `classDay`: the day of a class's day test, whose cases that hold the GPU
// exclusively are not run for a gate that can no longer pass (cannotPass).
void registerCase(const DayGate& g, const GateCase& c, const Options& o, const grading::Day* classDay = nullptr) {
    if (o.noSolution) {
        registerTest(g.spec.id(), c.name, [] { GTEST_SKIP() << "no instructor solutions in this tree"; });
        return;
    }
    registerTest(g.spec.id(), c.name, [&g, &c, o, classDay] {
        if (classDay != nullptr && classPart(g, c) == ClassPart::Exclusive) {
            const std::string why = grading::cannotPass(*classDay, g.spec.id(), failedGates());
            if (!why.empty()) GTEST_SKIP() << "not run, the verdict being decided: " << why << " in this test";
        }
        runGateCase(g, c, o);
        if (classDay != nullptr && ::testing::Test::HasFailure()) failedGates().insert(g.spec.id());
    });
}

void registerGate(const DayGate& g, const Options& o) {
    for (const GateCase* c : grading::runOrder(g)) {
        if (selected(*c, o.suite == "submission", {})) registerCase(g, *c, o);
    }
}

// A class's day test's verdict lines (report.cpp's classTestCases): each
// case's start and end, led by a token drawn as the process starts and
// printed before anything else. A runner's words, which a failure's message
// quotes, may print any line; they never hold the token, which no runner sees.
class ClassVerdictLines : public ::testing::EmptyTestEventListener {
public:
    explicit ClassVerdictLines(std::string token) : token_(std::move(token)) {}
    void OnTestStart(const ::testing::TestInfo& t) override { say("RUN", t); }
    void OnTestEnd(const ::testing::TestInfo& t) override {
        const ::testing::TestResult& r = *t.result();
        say(r.Skipped() ? "SKIPPED" : r.Failed() ? "FAILED" : "OK", t);
    }

private:
    void say(const char* what, const ::testing::TestInfo& t) const {
        std::cout << token_ << " " << what << " " << t.test_suite_name() << "." << t.name() << std::endl;
    }
    std::string token_;
};

void printClassVerdictLines() {
    std::random_device entropy;
    std::string token;
    for (int i = 0; i < 4; ++i) token += grading::formatText("%08x", static_cast<unsigned>(entropy()));
    std::cout << "verdict token: " << token << std::endl;
    ::testing::UnitTest::GetInstance()->listeners().Append(new ClassVerdictLines(token));
}

// A class's student and day: the student gates' cases, gate by gate in
// their declared order (one that reads back another's answers comes after
// it; gtest runs a suite's cases together), each gate's cases that share the
// GPU before those that may hold it exclusively (ClassPart), each part in an
// order the grading seed draws, the exclusive ones skipped where the gate can
// no longer pass (cannotPass); then the day's observations. GRADING_GATES
// (ids): only those gates' shared cases and no observation, a class's rerun
// of its failures with shrinking on (a timed case does not shrink);
// GRADING_DAY_REPORTS=off: no observation. The report reads each case's
// verdict from the lines ClassVerdictLines prints.
void registerClassDay(const grading::Day& day, const Options& o) {
    printClassVerdictLines();
    const char* only = std::getenv("GRADING_GATES");
    const std::vector<std::string> chosen = words(only != nullptr ? only : "");
    const uint64_t seed = grading::testing::gradingSeedValue();
    for (const DayGate& g : day.gates()) {
        if (g.spec.grades() != grading::Grades::Student) continue;
        if (!chosen.empty() && std::find(chosen.begin(), chosen.end(), g.spec.id()) == chosen.end()) continue;
        std::mt19937_64 draw(grading::caseSeed(seed, g.spec.id() + " case order"));
        for (const ClassPart part : {ClassPart::Shared, ClassPart::Exclusive}) {
            if (part == ClassPart::Exclusive && !chosen.empty()) break;
            std::vector<const GateCase*> order;
            for (const GateCase& c : g.cases) {
                if (selected(c, true, {}) && classPart(g, c) == part) order.push_back(&c);
            }
            std::shuffle(order.begin(), order.end(), draw);
            for (const GateCase* c : order) registerCase(g, *c, o, &day);
        }
    }
    const char* reports = std::getenv("GRADING_DAY_REPORTS");
    if (!chosen.empty() || (reports != nullptr && std::string(reports) == "off")) return;
    for (const grading::Observation& ob : day.observations()) {
        Options observe = o;
        observe.observation = ob.name;
        registerObservation(day, observe);
    }
}

// A class's instructor.<day>: the baselines of its student cases that a
// class times once (the speed gates' instructor rounds, a case's course
// baseline marked baselineOncePerClass), alone, kept for the class's students
// (InstructorTiming::MeasureOnce), with no student's runner alive.
void registerInstructorRounds(const grading::Day& day, const Options& o) {
    for (const DayGate& g : day.gates()) {
        for (const GateCase& c : g.cases) {
            if (!selected(c, true, {}) || !baselineOncePerClass(g, c)) continue;
            registerTest(g.spec.id(), c.name, [&g, &c, o] {
                GRADING_SKIP_WHERE_IT_CANNOT_RUN(o.runner);
                const uint64_t seed = grading::testing::gradingSeed();
                grading::testing::expectGate(runCase(g, c, o.runner, seed), contextOf(c, seed));
            });
        }
    }
}

// The untouched stub earns nothing: each student gate fails, or is not
// graded because a gate it requires fails.
void registerStub(const grading::Day& day, const Options& o) {
    registerTest("stub", day.name(), [&day, o] {
        GRADING_SKIP_WHERE_IT_CANNOT_RUN(o.runner);
        const uint64_t seed = grading::testing::gradingSeed();
        std::map<std::string, bool> passed;
        for (const DayGate& g : day.gates()) {
            if (g.spec.grades() != grading::Grades::Student) continue;
            const GateRun run = runGate(g, o.runner, true, {}, seed);
            passed[g.spec.id()] = run.result.passed;
            std::cout << "stub " << g.spec.id() << ": " << (run.result.passed ? "PASS" : "FAIL: " + run.result.message)
                      << "\n";
        }
        for (const DayGate& g : day.gates()) {
            if (g.spec.grades() != grading::Grades::Student || !passed[g.spec.id()]) continue;
            const auto blocked = std::find_if(g.spec.prerequisites().begin(), g.spec.prerequisites().end(),
                                              [&](const std::string& r) { return !passed[r]; });
            EXPECT_NE(blocked, g.spec.prerequisites().end())
                << g.spec.id() << " passes on the untouched stub and requires no gate that fails there: it would "
                << "earn " << g.spec.points() << " points with no student code";
        }
    });
}

// A failure of a gate that shrinks its counterexamples shows one within the
// day's bound, or the expectation says why its bug needs a larger input.
void expectSmallCounterexample(const grading::Day& day, const Expectation& e, const std::string& name,
                               const std::string& message) {
    for (const grading::CounterexampleBound& b : day.counterexampleBounds()) {
        if (b.gate != e.fails) continue;
        if (!e.largeCounterexample.empty()) {
            std::cout << name << ": its counterexample is not small: " << e.largeCounterexample << "\n";
            return;
        }
        const std::string phrase = "smallest failing input found";
        const size_t at = message.find(phrase);
        ASSERT_NE(at, std::string::npos) << name << " failed " << e.fails << " with no smaller failing input found: "
                                         << message;
        std::smatch m;
        const std::string shrunk = message.substr(at);
        ASSERT_TRUE(std::regex_search(shrunk, m, std::regex(b.sizePattern)) && m.size() > 1)
            << name << ": no size /" << b.sizePattern << "/ in " << shrunk;
        const uint64_t size = std::stoull(m[1].str());
        grading::recordFigure("counterexample_size", std::to_string(size));
        EXPECT_LE(size, b.max) << name << ": its smallest failing input is not small (" << size << ", want at most "
                               << b.max << "): " << shrunk;
    }
}

// GRADING_SANITIZER for the calls of one expectation's test, unset again
// however the test ends (the day's timed test runs several in one process).
class ScopedSanitizer {
public:
    explicit ScopedSanitizer(const std::string& tool) : set_(!tool.empty()) {
        if (set_) setenv("GRADING_SANITIZER", tool.c_str(), 1);
    }
    ~ScopedSanitizer() {
        if (set_) unsetenv("GRADING_SANITIZER");
    }
    ScopedSanitizer(const ScopedSanitizer&) = delete;
    ScopedSanitizer& operator=(const ScopedSanitizer&) = delete;

private:
    bool set_;
};

// Ends the runner's session as its test ends, however it ends, so a file's
// runner never runs beside the next file's timed calls (the day's timed
// test); what it wrote after its last answer fails the test.
class SessionEndsWithTest {
public:
    explicit SessionEndsWithTest(std::string runner) : runner_(std::move(runner)) {}
    ~SessionEndsWithTest() {
        if (const std::string late = grading::closeSession(runner_); !late.empty()) ADD_FAILURE() << late;
    }
    SessionEndsWithTest(const SessionEndsWithTest&) = delete;
    SessionEndsWithTest& operator=(const SessionEndsWithTest&) = delete;

private:
    std::string runner_;
};

// A planted bug or hostile submission: its gate fails, with the message the
// expectation names, on the graded cases (or the ones it lists).
void registerExpect(const grading::Day& day, const Options& o) {
    registerTest(o.suite, o.name, [&day, o] {
        // A hostile file is a student's: its runner never starts outside the
        // sandbox (a day's timed test runs planted bugs beside them).
        grading::setSandboxPolicy(o.suite == "hostile" ? grading::SandboxPolicy::Required
                                                       : grading::SandboxPolicy::Preferred);
        const SessionEndsWithTest session(o.runner);
        const grading::Expected<Expectation> read = readExpectation(o.expectFile);
        ASSERT_TRUE(read.ok()) << read.error();
        const Expectation& e = read.value();
        const bool contained = e.fails == "none";
        // Code that must fail is asked afresh on each attempt (a race gets its
        // chance every time); code that must pass is graded as a student's is,
        // answers one gate asked read back by the next (RunnerCall::answerShared).
        grading::shareRunnerAnswers(contained);
        const DayGate* gate = contained ? nullptr : day.find(e.fails);
        ASSERT_TRUE(contained || gate != nullptr) << o.expectFile << " names gate " << e.fails << ", which "
                                                  << day.name() << " does not declare";
        for (const std::string& c : contained ? std::vector<std::string>{} : e.cases) {
            ASSERT_TRUE(std::any_of(gate->cases.begin(), gate->cases.end(),
                                    [&](const GateCase& k) { return k.name == c; }))
                << o.expectFile << " names case " << c << ", which " << e.fails << " does not have";
        }
        if (!e.sanitizer.empty()) {
            if (std::system("command -v compute-sanitizer > /dev/null 2>&1") != 0) {
                GTEST_SKIP() << "compute-sanitizer is not on PATH";
            }
        }
        // A runner that cannot even answer the probe fails every gate with that
        // message (a hostile one can do that before any GPU is touched).
        const grading::RunnerOutcome& probe = grading::testing::probe(o.runner);
        if (probe.cannotRunHere()) GTEST_SKIP() << probe.message;
        const uint64_t seed = grading::testing::gradingSeed();
        if (!e.what.empty()) std::cout << o.name << ": " << e.what << "\n";
        if (!probe.ok()) {
            ASSERT_FALSE(contained) << o.name << " cannot answer the probe: " << probe.message;
            EXPECT_TRUE(std::regex_search(probe.message, std::regex(e.expect)))
                << o.name << " failed before " << e.fails << " ran, with a message that does not match /" << e.expect
                << "/: " << probe.message;
            return;
        }
        const ScopedSanitizer sanitizer(e.sanitizer);
        // --part: the timed gates alone (the day's timed test, with the machine
        // to itself), or the others; "fails": the gate it must fail alone (a
        // planted bug's shrink test).
        const auto inPart = [&o](const DayGate& g) {
            return o.part.empty() || o.part == "fails" || (o.part == "timed") == g.spec.timed();
        };
        if (!contained && inPart(*gate)) {
            GateRun run;
            int attempt = 0;
            const auto bites = [&e](const GateResult& r) {
                return e.scoreBelow ? r.passed && r.score && *r.score < *e.scoreBelow : !r.passed;
            };
            while (attempt < e.attempts) {
                ++attempt;
                run = runGate(*gate, o.runner, false, e.cases, seed);
                if (bites(run.result)) break;
            }
            grading::recordFigure("attempts", std::to_string(attempt));
            if (e.scoreBelow) {
                ASSERT_TRUE(run.result.passed) << o.name << " failed " << e.fails << " where it should score below "
                                               << *e.scoreBelow << ": " << run.result.message;
                ASSERT_TRUE(bites(run.result)) << o.name << " scored " << run.result.score.value_or(-1) << " on "
                                               << e.fails << ", not below " << *e.scoreBelow
                                               << ": the gate does not bite: " << run.result.message;
            } else {
                ASSERT_FALSE(run.result.passed) << o.name << " passed " << e.fails << " on " << attempt
                                                << " attempt(s): the gate does not bite";
            }
            EXPECT_TRUE(std::regex_search(run.result.message, std::regex(e.expect)))
                << o.name << " failed " << e.fails << ", but with a message that does not match /" << e.expect
                << "/: " << run.result.message;
            if (o.suite == "planted" && !e.scoreBelow && !grading::shrinkingTurnedOff()) {
                expectSmallCounterexample(day, e, o.name, run.result.message);
            }
        }
        // "gate" on the same cases, or "gate@case" on that one.
        for (const std::string& entry : e.passes) {
            const size_t at = entry.find('@');
            const std::string id = entry.substr(0, at);
            const std::vector<std::string> where = at == std::string::npos ? e.cases : words(entry.substr(at + 1));
            const DayGate* other = day.find(id);
            ASSERT_NE(other, nullptr) << o.expectFile << " names gate " << id << ", which is not declared";
            if (!inPart(*other) || o.part == "fails") continue;
            // A hostile file is a student's: a gate it names without cases runs the student's.
            const bool studentCases = o.suite == "hostile" && where.empty();
            const GateRun ok = runGate(*other, o.runner, studentCases, where, seed);
            EXPECT_TRUE(ok.ran) << o.expectFile << ": " << entry << " selects no case";
            EXPECT_TRUE(ok.result.passed) << o.name << " should leave " << entry << " passing: " << ok.result.message;
        }
    });
}

bool registerTimedParts(const grading::Day& day, const Options& o) {
    std::ifstream manifest(o.manifest);
    if (!manifest) {
        std::cerr << "cannot open the manifest " << o.manifest << "\n";
        return false;
    }
    for (const ManifestRow& f : readManifest(manifest)) {
        if (f.size() < 5 || f[0] != "expect") continue;  // expect <suite> <name> <runner> <file>
        if (!expectationParts(day, readExpectation(f[4])).any[1]) continue;
        Options part = o;
        part.suite = f[1];
        part.name = f[2];
        part.runner = f[3];
        part.expectFile = f[4];
        part.part = "timed";
        registerExpect(day, part);
    }
    return true;
}

void registerObservation(const grading::Day& day, const Options& o) {
    for (const grading::Observation& ob : day.observations()) {
        if (ob.name != o.observation) continue;
        registerTest(day.name(), ob.name, [&ob, o] {
            if (o.noSolution) GTEST_SKIP() << "no instructor solutions in this tree";
            GRADING_SKIP_WHERE_IT_CANNOT_RUN(o.runner);
            // After a class's exclusive cases: the report's own calls say which hold the GPU.
            holdFor(o.classDay, ClassPart::Exclusive, false);
            const uint64_t seed = grading::testing::gradingSeed();
            {
                const CaseTrace trace("observe", ob.name);
                ob.run({o.runner, seed, ob.limitSeconds, true, referenceRunnerPath(), courseRunnerPath()});
            }
            std::cout << grading::timedCallGpuLog().summary() << "\n";
            if (const auto rtt = grading::timedCallGpuLog().hostRoundTripMedianUs()) {
                grading::recordFigure("host_round_trip_us", grading::formatText("%.2f", *rtt));
            }
        });
    }
}

}  // namespace grading::driver
