// The generic day driver: one test binary per day, built from the day's
// declaration (harness/day.h) and this main. What it runs depends on the
// suite it is started for; ctest starts it once per gate and suite (in a
// class, once per student and day), as the file that --emit-ctest
// writes says.
//
//   <day>_tests --suite reference|submission --runner R --gate ID
//   <day>_tests --suite observe --runner R --observation NAME
//   <day>_tests --suite submission --runner R --class-day
//                                                  a class's student: the day's student cases (those
//                                                  that share the GPU first) and its observations
//   <day>_tests --suite instructor --runner R      a class's instructor rounds of the speed gates,
//                                                  timed once and kept for its students
//   <day>_tests --suite stub --runner R            every student gate fails (or is not graded)
//   <day>_tests --suite planted|hostile --runner R --expect FILE --name N [--part untimed|fails]
//                                                  a planted bug or hostile submission fails its gate
//                                                  (--part: its untimed gates, or the gate it fails)
//   <day>_tests --suite timed --manifest FILE      the timed gates of every planted bug and hostile
//                                                  file the manifest names, one after another
//   <day>_tests --suite reference --gate ID --no-solution   skips: the tree has no solutions
//   <day>_tests --gates-tsv                        the declarations, for the report
//   <day>_tests --charts-tsv                       the heading and charts, for the HTML page
//   <day>_tests --emit-ctest OUT --manifest FILE   the ctest registration of every suite
#include <cstdlib>
#include <fstream>
#include <optional>
#include <iostream>
#include <sstream>

#include "driver.h"
#include "harness/runner_client.h"
#include "harness/testing.h"

namespace {

using namespace grading::driver;
using grading::DayGate;

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

// The command line, or nothing after saying what is wrong with it.
std::optional<Options> parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (flag(arg, "suite", &o.suite, i, argc, argv) || flag(arg, "runner", &o.runner, i, argc, argv) ||
            flag(arg, "gate", &o.gate, i, argc, argv) || flag(arg, "observation", &o.observation, i, argc, argv) ||
            flag(arg, "expect", &o.expectFile, i, argc, argv) || flag(arg, "name", &o.name, i, argc, argv) || flag(arg, "part", &o.part, i, argc, argv) ||
            flag(arg, "emit-ctest", &o.emitCtest, i, argc, argv) || flag(arg, "manifest", &o.manifest, i, argc, argv) ||
            flag(arg, "reference-runner", &o.referenceRunner, i, argc, argv) ||
            flag(arg, "course-runner", &o.courseRunner, i, argc, argv) ||
            flag(arg, "policy", &o.policy, i, argc, argv)) {
            continue;
        }
        if (arg == "--gates-tsv") o.gatesTsv = true;
        else if (arg == "--charts-tsv") o.chartsTsv = true;
        else if (arg == "--no-solution") o.noSolution = true;
        else if (arg == "--class-day") o.classDay = true;
        else {
            std::cerr << "unknown argument " << arg << "\n";
            return std::nullopt;
        }
    }
    if (const char* seed = std::getenv("GRADING_SEED"); seed != nullptr && *seed != '\0') {
        if (const auto parsed = grading::testing::parseSeed(seed); !parsed) {
            std::cerr << parsed.error() << "\n";
            return std::nullopt;
        }
    }
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    const std::optional<Options> parsed = parseOptions(argc, argv);
    if (!parsed) return 2;
    const Options& o = *parsed;
    // Runners of submitted code never run outside the sandbox (unless the
    // instructor turned it off); the instructor's own may. A hostile file's
    // test sets it itself (registerExpect), beside planted bugs in timed.<day>.
    if (o.suite == "submission" || o.suite == "stub") {
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
    if (o.suite == "submission" && o.classDay) {
        instructorTiming() = grading::InstructorTiming::ReadBackOnce;
        registerClassDay(day, o);
    } else if (o.suite == "instructor") {
        instructorTiming() = grading::InstructorTiming::MeasureOnce;
        registerInstructorRounds(day, o);
    } else if (o.suite == "reference" || o.suite == "submission") {
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
    } else if (o.suite == "timed") {
        if (!registerTimedParts(day, o)) return 2;
    } else if (!o.suite.empty()) {
        std::cerr << "unknown suite \"" << o.suite << "\"\n";
        return 2;
    }
    int status = RUN_ALL_TESTS();
    releaseCaseHolds();
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
