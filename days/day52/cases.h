#pragma once
// What the day 52 suites grade on, and one runner call per question asked.
#include <ostream>
#include <string>
#include <vector>

#include "day52_gates.h"
#include "harness/runner_client.h"

namespace day52::cases {

// The one case every gate runs on: the course's input, 2^20 floats. A
// parameter type (not a string) so that ctest names the tests
// "Day52/Diamond.<test>/course_input": CMake 3.25 keeps the "# GetParam()"
// comment in the name of a test whose parameter has a custom name.
struct CourseInput {};
inline void PrintTo(const CourseInput&, std::ostream* os) { *os << "course_input"; }

// The host reference for the course's input, computed once per process.
const std::vector<float>& want();

// Common to every call: the outcome, and the first missing or mistyped
// field of the result when there is one.
struct Call {
    grading::RunnerOutcome outcome;
    std::string fieldError;
    int smCount = 0;
    std::string device;
    bool ok() const { return outcome.ok() && fieldError.empty(); }
    // Why there is nothing to grade: the runner's message or the field error.
    std::string why() const { return outcome.ok() ? "the runner's result is incomplete: " + fieldError : outcome.message; }
};

// diamond, serial and broken: one out buffer.
struct OutRun : Call {
    std::vector<float> out;
};
OutRun runOut(const std::string& runner, const std::string& subcommand);

struct StressResult : Call {
    std::vector<StressRun> runs;
    std::vector<float> runMs;
    StressHold hold;
};
StressResult runStress(const std::string& runner, int runs = -1);

struct NoTimingResult : Call {
    std::vector<ElapsedProbe> probes;
    std::vector<std::string> slotCleared;  // what each clearing cudaGetLastError returned
};
NoTimingResult runNoTiming(const std::string& runner);

struct TimingResult : Call {
    std::vector<float> diamondMs;
    std::vector<float> serialMs;
    std::vector<float> out;  // the diamond's, after its timed runs
};
TimingResult runTiming(const std::string& runner);

}  // namespace day52::cases
