// The generic day driver: one test binary per day, built from the day's
// declaration (harness/day.h) and this main. What it runs depends on the
// suite it is started for; ctest starts it once per gate and suite, as the
// file that --emit-ctest writes says.
//
//   <day>_tests --suite reference|submission --runner R --gate ID
//   <day>_tests --suite observe --runner R --observation NAME
//   <day>_tests --suite stub --runner R            every student gate fails (or is not graded)
//   <day>_tests --suite planted|hostile --runner R --expect FILE --name N
//                                                  a planted bug or hostile submission fails its gate
//   <day>_tests --suite reference --gate ID --no-solution   skips: the tree has no solutions
//   <day>_tests --gates-tsv                        the declarations, for the report
//   <day>_tests --charts-tsv                       the heading and charts, for the HTML page
//   <day>_tests --emit-ctest OUT --manifest FILE   the ctest registration of every suite
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "harness/day.h"
#include "harness/gpu_state.h"
#include "harness/runner_client.h"
#include "harness/testing.h"
#include "harness/text.h"


namespace {

using grading::CaseContext;
using grading::DayGate;
using grading::GateCase;
using grading::GateResult;

constexpr int kSkipStatus = 77;

struct Options {
    std::string suite, runner, gate, observation, expectFile, name, emitCtest, manifest, referenceRunner, courseRunner,
        policy;
    bool gatesTsv = false;
    bool chartsTsv = false;
    bool noSolution = false;
};

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

CaseContext contextFor(const std::string& runner, const DayGate& g, const GateCase& c, uint64_t seed) {
    return {runner,          seed, c.limitSeconds, g.spec.timed() && timedCasesExclusive(), referenceRunnerPath(),
            courseRunnerPath(), g.spec.visibility() != "hidden"};
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

// "key: value" lines of an expectation, or "// key: value" at the top of a
// hostile submission's source.
struct Expectation {
    std::string what, fails, expect, sanitizer, largeCounterexample;
    std::vector<std::string> passes, cases;
    int attempts = 1;
    // A scored gate (a speed gate) bites by scoring below this, with a
    // message matching `expect`, rather than by failing.
    std::optional<double> scoreBelow;
};

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

// The exclusive scope that a process's run of cases holding the GPU
// exclusively shares (runOrder puts them together): the first opens it, the
// next keep it, and the first case that does not hold the GPU exclusively,
// or the program's end, closes it.
std::optional<grading::ExclusiveGpuScope>& caseExclusiveScope() {
    static std::optional<grading::ExclusiveGpuScope> scope;
    return scope;
}

void exclusiveScopeFor(const GateCase& c) {
    if (!c.exclusiveGpu) caseExclusiveScope().reset();
    else if (!caseExclusiveScope()) caseExclusiveScope().emplace();
}

void registerGate(const DayGate& g, const Options& o) {
    const bool submission = o.suite == "submission";
    for (const GateCase* next : grading::runOrder(g)) {
        const GateCase& c = *next;
        if (!selected(c, submission, {})) continue;
        if (o.noSolution) {
            registerTest(g.spec.id(), c.name, [] { GTEST_SKIP() << "no instructor solutions in this tree"; });
            continue;
        }
        registerTest(g.spec.id(), c.name, [&g, &c, o, submission] {
            GRADING_SKIP_WHERE_IT_CANNOT_RUN(o.runner);
            exclusiveScopeFor(c);
            const uint64_t seed = grading::testing::gradingSeed();
            const GateResult result = runCase(g, c, o.runner, seed);
            grading::testing::expectGate(result, contextOf(c, seed));
            // The instructor's code against itself earns all of a scored gate.
            if (!submission && g.spec.scored() && result.passed) {
                EXPECT_EQ(result.score.value_or(0.0), 1.0) << g.spec.id() << ": the instructor solution does not earn "
                                                           << "all of it: " << result.message;
            }
            if (g.spec.timed()) std::cout << grading::timedCallGpuLog().summary() << "\n";
        });
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

// A planted bug or hostile submission: its gate fails, with the message the
// expectation names, on the graded cases (or the ones it lists).
void registerExpect(const grading::Day& day, const Options& o) {
    registerTest(o.suite, o.name, [&day, o] {
        const grading::Expected<Expectation> read = readExpectation(o.expectFile);
        ASSERT_TRUE(read.ok()) << read.error();
        const Expectation& e = read.value();
        // Each attempt asks the planted code afresh: a race gets its chance
        // every time, and the gates judge what it just did.
        grading::shareRunnerAnswers(false);
        const bool contained = e.fails == "none";
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
        if (!e.sanitizer.empty()) setenv("GRADING_SANITIZER", e.sanitizer.c_str(), 1);
        if (!contained) {
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
            if (o.suite == "planted" && !e.scoreBelow) expectSmallCounterexample(day, e, o.name, run.result.message);
        }
        // "gate" on the same cases, or "gate@case" on that one.
        for (const std::string& entry : e.passes) {
            const size_t at = entry.find('@');
            const std::string id = entry.substr(0, at);
            const std::vector<std::string> where = at == std::string::npos ? e.cases : words(entry.substr(at + 1));
            const DayGate* other = day.find(id);
            ASSERT_NE(other, nullptr) << o.expectFile << " names gate " << id << ", which is not declared";
            // A hostile file is a student's: a gate it names without cases runs the student's.
            const bool studentCases = o.suite == "hostile" && where.empty();
            const GateRun ok = runGate(*other, o.runner, studentCases, where, seed);
            EXPECT_TRUE(ok.ran) << o.expectFile << ": " << entry << " selects no case";
            EXPECT_TRUE(ok.result.passed) << o.name << " should leave " << entry << " passing: " << ok.result.message;
        }
        if (!e.sanitizer.empty()) unsetenv("GRADING_SANITIZER");
    });
}

void registerObservation(const grading::Day& day, const Options& o) {
    for (const grading::Observation& ob : day.observations()) {
        if (ob.name != o.observation) continue;
        registerTest(day.name(), ob.name, [&ob, o] {
            if (o.noSolution) GTEST_SKIP() << "no instructor solutions in this tree";
            GRADING_SKIP_WHERE_IT_CANNOT_RUN(o.runner);
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

void printGatesTsv(const grading::Day& day) {
    std::cout << "id\tday\tpoints\tvisibility\tgrades\trequires\ttimed\tscored\ttests\ttitle\n";
    for (const DayGate& g : day.gates()) {
        const grading::GateSpec& spec = g.spec;
        std::string prerequisites;
        for (const std::string& r : spec.prerequisites()) prerequisites += (prerequisites.empty() ? "" : ",") + r;
        std::cout << spec.id() << "\t" << day.name() << "\t" << spec.points() << "\t" << spec.visibility() << "\t"
                  << (spec.grades() == grading::Grades::Student ? "student" : "course") << "\t"
                  << (prerequisites.empty() ? "-" : prerequisites) << "\t" << (spec.timed() ? "yes" : "no") << "\t"
                  << (spec.scored() ? "yes" : "no") << "\t" << spec.id() << "\t" << grading::tsvField(spec.title())
                  << "\n";
    }
}

// A row without a chart id carries the day's heading in its title.
void printChartsTsv(const grading::Day& day) {
    using grading::tsvField;
    // A spec's line breaks and their indentation as one space: JSON strings hold no raw line break.
    const auto oneLine = [](const std::string& json) {
        std::string out;
        for (size_t i = 0; i < json.size(); ++i) {
            if (json[i] != '\n') {
                out += json[i];
                continue;
            }
            out += ' ';
            while (i + 1 < json.size() && json[i + 1] == ' ') ++i;
        }
        return out;
    };
    std::cout << "day\tchart\ttitle\tcaption\tmissing\tfigures\tfields\tvalue\tspec\n";
    if (!day.heading().empty()) std::cout << day.name() << "\t\t" << tsvField(day.heading()) << "\t\t\t\t\t\t\n";
    for (const grading::ChartSpec& c : day.charts()) {
        std::string fields;
        for (const std::string& f : c.fields()) fields += (fields.empty() ? "" : ",") + f;
        std::cout << day.name() << "\t" << c.id() << "\t" << tsvField(c.title()) << "\t" << tsvField(c.caption()) << "\t"
                  << tsvField(c.missing()) << "\t" << tsvField(c.figures()) << "\t" << tsvField(fields) << "\t"
                  << tsvField(c.value()) << "\t" << tsvField(oneLine(c.vegaLite())) << "\n";
    }
}

std::string selfPath() {
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// CMake bracket argument: nothing inside needs escaping.
std::string bracket(const std::string& s) { return "[==[" + s + "]==]"; }

// ctest's labels for a test's GPU calls: "timed" where it times them;
// "exclusive" where any of them holds the GPU exclusively (every timed one does),
// which a class grades after everything else.
std::string gpuLabels(bool timed, bool exclusiveGpu = false) {
    return std::string(";gpu") + (timed ? ";timed" : "") + (timed || exclusiveGpu ? ";exclusive" : "");
}

std::string gpuLabels(const DayGate& g, bool studentOnly) {
    return gpuLabels(g.spec.timed(), std::any_of(g.cases.begin(), g.cases.end(), [&](const GateCase& c) {
                         return c.exclusiveGpu && selected(c, studentOnly, {});
                     }));
}

double caseSeconds(const DayGate& g, bool studentOnly, const std::vector<std::string>& only) {
    double total = 0;
    for (const GateCase& c : g.cases) {
        if (selected(c, studentOnly, only)) total += c.limitSeconds;
    }
    return total;
}

// Gates with many cases run as several ctest tests, gtest shards of the
// gate (case k of runOrder in shard k mod N), each with its own runner
// session: one after another, a gate of many cases alone was the GPU
// suite's critical path. The grade report takes a gate's shards together
// (all must pass, and all must have run). A class's tests stay one per
// gate: its students already fill the machine, and splitting a gate per
// student made a class no faster (docs/performance.md).
constexpr int kCasesPerShard = 20;

int gateShards(const DayGate& g, bool studentOnly) {
    const auto cases = std::count_if(g.cases.begin(), g.cases.end(),
                                     [&](const GateCase& c) { return selected(c, studentOnly, {}); });
    return std::max(1, static_cast<int>((cases + kCasesPerShard - 1) / kCasesPerShard));
}

// The time limits of the cases gtest gives shard `k` of `shards`: every
// `shards`-th of the gate's selected cases in run order, from the `k`-th.
double shardSeconds(const DayGate& g, bool studentOnly, int shards, int k) {
    double total = 0;
    int index = 0;
    for (const GateCase* c : grading::runOrder(g)) {
        if (!selected(*c, studentOnly, {})) continue;
        if (index++ % shards == k) total += c->limitSeconds;
    }
    return total;
}

// ctest's registration of every suite of the day, from the manifest CMake
// wrote (which runners exist, the planted and hostile expectations). Each
// TIMEOUT comes from the cases' own limits, scaled with the runners' when
// GRADING_SANITIZER is set as ctest starts.
int emitCtest(const grading::Day& day, const Options& o) {
    std::ifstream manifest(o.manifest);
    if (!manifest) {
        std::cerr << "cannot open the manifest " << o.manifest << "\n";
        return 2;
    }
    const std::string self = selfPath();
    std::ostringstream out;
    out << "# Written by " << self << " --emit-ctest; regenerated on every build.\n"
        << "if(\"$ENV{GRADING_SANITIZER}\" STREQUAL \"\")\n  set(grading_scale 1)\nelse()\n  set(grading_scale "
        << static_cast<int>(grading::kSanitizerSlowdown) << ")\nendif()\n";
    std::string referencePath, coursePath, policyPath;
    const auto add = [&](const std::string& name, const std::vector<std::string>& args, double seconds,
                         const std::string& labels, bool serial, const std::string& environment = "") {
        out << "add_test(" << bracket(name) << " " << bracket(self);
        for (const std::string& a : args) out << " " << bracket(a);
        if (!referencePath.empty()) out << " " << bracket("--reference-runner") << " " << bracket(referencePath);
        if (!coursePath.empty()) out << " " << bracket("--course-runner") << " " << bracket(coursePath);
        if (!policyPath.empty()) out << " " << bracket("--policy") << " " << bracket(policyPath);
        // Label serial: the RUN_SERIAL ones, to select (ctest -LE serial) or check.
        const std::string allLabels = day.name() + ";" + labels + (serial ? ";serial" : "");
        out << ")\nmath(EXPR grading_timeout \"" << static_cast<long long>(seconds + 60.5) << " * ${grading_scale}\")\n"
            << "set_tests_properties(" << bracket(name) << " PROPERTIES LABELS " << bracket(allLabels)
            << " TIMEOUT ${grading_timeout} SKIP_RETURN_CODE " << kSkipStatus << " RESOURCE_GROUPS \"gpus:1\""
            << (environment.empty() ? "" : " ENVIRONMENT " + bracket(environment))
            << (serial ? " RUN_SERIAL TRUE" : "")
            // The longest first, where ctest has no times of its own yet (a
            // fresh build): the cases' limits stand in for their run time.
            << " COST " << static_cast<long long>(seconds) << ")\n";
    };
    // Tab-separated, empty fields kept ("reference\t" names no runner).
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(manifest, line);) {
        if (line.empty()) continue;
        std::vector<std::string> f;
        for (size_t start = 0;;) {
            const size_t tab = line.find('\t', start);
            f.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        rows.push_back(std::move(f));
    }
    // The instructor's runner, for every test's cases that compare against it:
    // the reference suite's, or a class build's "instructor" row.
    for (const std::vector<std::string>& f : rows) {
        if ((f[0] == "reference" || f[0] == "instructor") && f.size() >= 2 && !f[1].empty()) referencePath = f[1];
        if (f[0] == "course" && f.size() >= 2 && !f[1].empty()) coursePath = f[1];
        if (f[0] == "policy" && f.size() >= 2 && !f[1].empty()) policyPath = f[1];
    }
    for (const std::vector<std::string>& f : rows) {
        const std::string& kind = f[0];
        if ((kind == "reference" || kind == "submission") && f.size() >= 2) {
            const bool none = f[1].empty();
            const bool submission = kind == "submission";
            for (const DayGate& g : day.gates()) {
                if (submission && g.spec.grades() != grading::Grades::Student) continue;
                std::vector<std::string> args = {"--suite", kind, "--gate", g.spec.id()};
                if (none) args.push_back("--no-solution");
                else args.insert(args.end(), {"--runner", f[1]});
                // Timed gates hold the GPU exclusively through its slots, not
                // the whole machine (in a class they never did). The speed gates
                // still run alone here: the reference suite holds the
                // instructor's code to 1.2x of itself, and a compile beside it
                // would time the host as much as the kernel.
                const std::string name = kind + "." + g.spec.id();
                const std::string labels = kind + gpuLabels(g, submission);
                const bool serial = g.spec.timed() && g.spec.scored();
                const int shards = none ? 1 : gateShards(g, submission);
                if (shards == 1) {
                    add(name, args, caseSeconds(g, submission, {}), labels, serial);
                    continue;
                }
                for (int k = 0; k < shards; ++k) {
                    add(name + ".shard" + std::to_string(k + 1) + "of" + std::to_string(shards), args,
                        shardSeconds(g, submission, shards, k), labels, serial,
                        "GTEST_TOTAL_SHARDS=" + std::to_string(shards) + ";GTEST_SHARD_INDEX=" + std::to_string(k));
                }
            }
            for (const grading::Observation& ob : day.observations()) {
                std::vector<std::string> args = {"--suite", "observe", "--observation", ob.name};
                if (none) args.push_back("--no-solution");
                else args.insert(args.end(), {"--runner", f[1]});
                add(kind + "." + day.name() + "." + ob.name, args, ob.limitSeconds, kind + gpuLabels(true), false);
            }
        } else if (kind == "student" && f.size() >= 3) {
            // student <id> <runner>: one student of a class build, graded as a submission.
            for (const DayGate& g : day.gates()) {
                if (g.spec.grades() != grading::Grades::Student) continue;
                // Timed gates hold the GPU exclusively through its slots; run
                // serially across a class they would queue every student.
                const std::string name = f[1] + "." + g.spec.id();
                add(name, {"--suite", "submission", "--gate", g.spec.id(), "--runner", f[2]}, caseSeconds(g, true, {}),
                    "class;" + f[1] + gpuLabels(g, true), false);
                if (!g.spec.after().empty()) {
                    std::string after;
                    for (const std::string& id : g.spec.after()) after += (after.empty() ? "" : ";") + f[1] + "." + id;
                    out << "set_tests_properties(" << bracket(name) << " PROPERTIES DEPENDS " << bracket(after) << ")\n";
                }
            }
            // The day's report too, in the timed pass (label exclusive): its
            // figures draw the student's charts, as a lone grading's do.
            for (const grading::Observation& ob : day.observations()) {
                add(f[1] + "." + day.name() + "." + ob.name,
                    {"--suite", "observe", "--observation", ob.name, "--runner", f[2]}, ob.limitSeconds,
                    "class;" + f[1] + gpuLabels(true), false);
            }
        } else if (kind == "stub" && f.size() >= 2) {
            double seconds = 0;
            for (const DayGate& g : day.gates()) {
                if (g.spec.grades() == grading::Grades::Student) seconds += caseSeconds(g, true, {});
            }
            add("stub." + day.name(), {"--suite", "stub", "--runner", f[1]}, seconds, "stub;gpu", false);
        } else if (kind == "expect" && f.size() >= 5) {
            // expect <planted|hostile> <name> <runner> <expectation file>
            const grading::Expected<Expectation> e = readExpectation(f[4]);
            double seconds = 300;
            bool serial = false;
            if (e) {
                if (const DayGate* g = day.find(e->fails)) {
                    seconds = caseSeconds(*g, false, e->cases) * e->attempts;
                    serial = g->spec.timed();
                }
                for (const std::string& entry : e->passes) {
                    const size_t at = entry.find('@');
                    const std::vector<std::string> where =
                        at == std::string::npos ? e->cases : words(entry.substr(at + 1));
                    if (const DayGate* g = day.find(entry.substr(0, at))) {
                        seconds += caseSeconds(*g, false, where);
                        serial = serial || g->spec.timed();  // it must pass: measured with the machine to itself
                    }
                }
                if (!e->sanitizer.empty()) seconds *= grading::kSanitizerSlowdown;
            }
            add(f[1] + "." + day.name() + "." + f[2],
                {"--suite", f[1], "--runner", f[3], "--expect", f[4], "--name", f[2]}, seconds,
                f[1] + gpuLabels(serial), serial);
        }
    }
    std::ofstream file(o.emitCtest, std::ios::trunc);
    file << out.str();
    return file ? 0 : 2;
}

bool flag(const std::string& arg, const char* name, std::string* value, int& i, int argc, char** argv) {
    const std::string key = std::string("--") + name;
    if (arg == key && i + 1 < argc) {
        *value = argv[++i];
        return true;
    }
    if (arg.rfind(key + "=", 0) == 0) {
        *value = arg.substr(key.size() + 1);
        return true;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (flag(arg, "suite", &o.suite, i, argc, argv) || flag(arg, "runner", &o.runner, i, argc, argv) ||
            flag(arg, "gate", &o.gate, i, argc, argv) || flag(arg, "observation", &o.observation, i, argc, argv) ||
            flag(arg, "expect", &o.expectFile, i, argc, argv) || flag(arg, "name", &o.name, i, argc, argv) ||
            flag(arg, "emit-ctest", &o.emitCtest, i, argc, argv) || flag(arg, "manifest", &o.manifest, i, argc, argv) ||
            flag(arg, "reference-runner", &o.referenceRunner, i, argc, argv) ||
            flag(arg, "course-runner", &o.courseRunner, i, argc, argv) ||
            flag(arg, "policy", &o.policy, i, argc, argv)) {
            continue;
        }
        if (arg == "--gates-tsv") o.gatesTsv = true;
        else if (arg == "--charts-tsv") o.chartsTsv = true;
        else if (arg == "--no-solution") o.noSolution = true;
        else {
            std::cerr << "unknown argument " << arg << "\n";
            return 2;
        }
    }
    if (const char* seed = std::getenv("GRADING_SEED"); seed != nullptr && *seed != '\0') {
        if (const auto parsed = grading::testing::parseSeed(seed); !parsed) {
            std::cerr << parsed.error() << "\n";
            return 2;
        }
    }
    // Runners of submitted code never run outside the sandbox (unless the
    // instructor turned it off); the instructor's own may.
    if (o.suite == "submission" || o.suite == "stub" || o.suite == "hostile") {
        grading::setSandboxPolicy(grading::SandboxPolicy::Required);
    }
    referenceRunnerPath() = o.referenceRunner;
    courseRunnerPath() = o.courseRunner;
    grading::testing::machineRunner() = !o.courseRunner.empty() ? o.courseRunner : o.referenceRunner;
    static grading::Day day = grading::declareDay();
    if (!o.policy.empty()) {
        std::ifstream in(o.policy);
        std::stringstream text;
        text << in.rdbuf();
        const grading::Expected<bool> applied = in ? grading::applyPolicy(day, text.str())
                                                   : grading::Expected<bool>(grading::Error{"cannot read it"});
        if (!applied) {
            std::cerr << "the policy " << o.policy << ": " << applied.error() << "\n";
            return 2;
        }
    }
    if (o.gatesTsv) {
        printGatesTsv(day);
        return 0;
    }
    if (o.chartsTsv) {
        printChartsTsv(day);
        return 0;
    }
    if (!o.emitCtest.empty()) return emitCtest(day, o);
    if (o.suite == "reference" || o.suite == "submission") {
        const DayGate* g = day.find(o.gate);
        if (g == nullptr) {
            std::cerr << day.name() << " has no gate \"" << o.gate << "\"\n";
            return 2;
        }
        registerGate(*g, o);
        // The gate's cases in an order the seed draws, after gtest has dealt
        // out its shards: a submission cannot count on which call comes
        // first (a shape or a parameter latched by it). The seed replays it.
        GTEST_FLAG_SET(shuffle, true);
        GTEST_FLAG_SET(random_seed, static_cast<int32_t>(grading::testing::gradingSeedValue() % 99999) + 1);
    } else if (o.suite == "observe") {
        registerObservation(day, o);
    } else if (o.suite == "stub") {
        timedCasesExclusive() = false;
        registerStub(day, o);
    } else if (o.suite == "planted" || o.suite == "hostile") {
        registerExpect(day, o);
    } else if (!o.suite.empty()) {
        std::cerr << "unknown suite \"" << o.suite << "\"\n";
        return 2;
    }
    int status = RUN_ALL_TESTS();
    caseExclusiveScope().reset();
    // A runner that wrote after its last answer fails the test it ran for.
    if (const std::string late = grading::closeSessions(); !late.empty()) {
        std::cerr << late;
        status = 1;
    }
    // Every test skipped (no GPU, no solutions) and none failed: tell ctest,
    // which reads kSkipStatus as "not run", never as a pass.
    const ::testing::UnitTest& run = *::testing::UnitTest::GetInstance();
    if (status == 0 && run.skipped_test_count() > 0 && run.successful_test_count() == 0) return kSkipStatus;
    return status;
}
