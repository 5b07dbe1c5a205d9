#pragma once
// What the day driver's files share (driver.cpp, suites.cpp, tables.cpp,
// ctest_file.cpp): its options, the cases a suite selects, the expectation
// a planted bug or hostile file states, and each job's entry point.
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "harness/day.h"
#include "harness/runner_client.h"

namespace grading::driver {

// What ctest reads as "not run": a test every case of which skipped.
inline constexpr int kSkipStatus = 77;

struct Options {
    std::string suite, runner, gate, observation, expectFile, name, emitCtest, manifest, referenceRunner, courseRunner,
        policy;
    std::string part;  // an expectation's "timed" or "untimed" gates alone; "": all of them
    bool gatesTsv = false;
    bool chartsTsv = false;
    bool noSolution = false;
    bool classDay = false;  // a class's student-day test (--class-day): every student gate of the day
};

// The process's runs (suites.cpp): whether its timed cases hold the GPU
// exclusively, and the instructor's and the course's runners; what its last
// cases still hold (an exclusive scope, a class's timed turn), given back.
bool& timedCasesExclusive();
std::string& referenceRunnerPath();
std::string& courseRunnerPath();
InstructorTiming& instructorTiming();
void releaseCaseHolds();

// A class grades each student's day in one test process, so the day starts
// the student's runner once: the cases whose calls all share the GPU first,
// gate by gate, then those that may hold it exclusively (a timed gate's, a
// case too latency-bound to share it), holding one of the GPU's timed
// turns (gpu_slots.h), then the day's observations. A gate may have cases
// of both parts. The grade report finds a gate's verdict in the test's
// output (gates.tsv's class_test).
enum class ClassPart { Shared, Exclusive };
ClassPart classPart(const DayGate& g, const GateCase& c);
// The test's name after the student's prefix: "<day>".
std::string classTestName(const Day& day);
// The class tests that hold a student gate's cases, comma-separated: gates.tsv's class_test.
std::string classTests(const Day& day, const DayGate& g);

// A speed gate: timed and scored (speedCase times the instructor against
// it). Its tests run alone on the machine; a class times its instructor
// rounds once (instructor.<day>).
inline bool isSpeedGate(const DayGate& g) { return g.spec.timed() && g.spec.scored(); }
// A case whose baseline a class times once, in its instructor.<day> test.
inline bool baselineOncePerClass(const DayGate& g, const GateCase& c) {
    return isSpeedGate(g) || c.baselineOncePerClass;
}
// The class test that times them: "instructor.<day>".
inline std::string instructorRoundsTestName(const Day& day) { return "instructor." + day.name(); }

// Whether a suite runs case `c`: a student suite only the student's, and
// `only` (case names), when not empty, only those.
bool selected(const GateCase& c, bool studentOnly, const std::vector<std::string>& only);
std::vector<std::string> words(const std::string& text);

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
Expected<Expectation> readExpectation(const std::string& path);

// The seconds of the cases an expectation names, [0] its untimed gates' and
// [1] its timed gates', and which of the two it names.
struct ExpectationParts {
    double seconds[2] = {0, 0};
    bool any[2] = {false, false};
};
ExpectationParts expectationParts(const Day& day, const Expected<Expectation>& e);

// The manifest CMake writes for --emit-ctest, a row a line, tab-separated:
// "reference <runner>", "expect <suite> <name> <runner> <file>", ...
using ManifestRow = std::vector<std::string>;
std::vector<ManifestRow> readManifest(std::istream& in);

// The day's one serial test: the timed gates of every planted bug and
// hostile file the manifest names, in one process, with the machine to itself.
inline std::string timedPartsTestName(const Day& day) { return "timed." + day.name(); }

// The suites, as gtest tests (suites.cpp).
void registerGate(const DayGate& g, const Options& o);
void registerStub(const Day& day, const Options& o);
void registerExpect(const Day& day, const Options& o);
// Every expectation of the manifest `o.manifest` with timed gates: those gates,
// a gtest test each (<suite>.<name>); false after saying why it cannot.
bool registerTimedParts(const Day& day, const Options& o);
void registerObservation(const Day& day, const Options& o);
void registerClassDay(const Day& day, const Options& o);
void registerInstructorRounds(const Day& day, const Options& o);

// The tables the report and the page read (tables.cpp).
void printGatesTsv(const Day& day);
void printChartsTsv(const Day& day);

// ctest's registration of every suite (ctest_file.cpp); the exit status.
int emitCtest(const Day& day, const Options& o);

}  // namespace grading::driver
