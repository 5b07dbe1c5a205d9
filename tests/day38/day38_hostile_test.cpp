// Known-bad submissions (tests/hostile/) must be graded as failing, by the
// gate meant for them, with a message that says what happened.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "day38_cases.h"
#include "harness/testing.h"

namespace {

using ::testing::ContainsRegex;
using grading::testing::runnerInDir;

struct Hostile {
    std::string name;   // tests/hostile/<name>
    std::string gate;   // the gate it must fail
    std::string graph;  // where it fails
    std::string expect; // regex the message must contain
};

std::vector<Hostile> hostiles() {
    return {
        {"hardcoded", "38.distances", "rmat", "vertex [0-9]+ \\(v[0-9]+\\): got -1, want [0-9]+"},
        {"never_returns", "38.distances", "word_graph",
         "did not finish in [0-9]+ s \\(it was in expandEdgePerThread \\(edge mapping\\) at level 0\\)"},
        {"illegal_address", "38.distances", "word_graph",
         "CUDA error in expandEdgePerThread \\(edge mapping\\) at level 0: "
         "cudaError(IllegalAddress|InvalidAddressSpace)"},
        {"guard_word", "38.walk", "word_graph",
         "after walkEdgePerThread \\(edge mapping\\) on level 0: buffer walkOut was written past its end, at index 1 "
         "\\(it holds 1\\)"},
        {"writes_input", "38.distances", "word_graph",
         "expandEdgePerThread \\(edge mapping\\) at level 0 wrote to its input colIndices at index 0 \\(was [0-9]+, "
         "now -7\\)"},
        {"exit_zero", "38.levels", "word_graph", "exited with status 0 without a complete result"},
        {"side_stream", "38.frontier_total", "word_graph",
         "expandEdgePerThread \\(edge mapping\\) at level [0-9]+ left work running on another stream"},
        {"cached_replay", "38.distances", "word_graph", "vertex [0-9]+ \\([a-z]+\\): got -?[0-9]+, want -?[0-9]+"},
    };
}

class HostileSubmission : public ::testing::TestWithParam<Hostile> {};

TEST_P(HostileSubmission, FailsItsGateWithAClearMessage) {
    const Hostile& h = GetParam();
    const std::string runner = runnerInDir("day38_runner_hostile_" + h.name);
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const day38::cases::GraphCase c = day38::cases::makeGraphCase(h.graph, grading::testing::gradingSeed());
    const grading::HostBfs host = grading::bfsHost(c.graph, c.source);
    const grading::GateResult r = day38::cases::evaluate(h.gate, runner, c, host, "edge");
    EXPECT_FALSE(r.passed) << h.name << " passed " << h.gate;
    EXPECT_EQ(r.id, h.gate);
    EXPECT_THAT(r.message, ContainsRegex(h.expect));
}

INSTANTIATE_TEST_SUITE_P(Day38, HostileSubmission, ::testing::ValuesIn(hostiles()),
                         [](const ::testing::TestParamInfo<Hostile>& info) { return info.param.name; });

// The hard-coded one passes where it was tuned: only hidden graphs expose it.
TEST(Day38HostileHardcoded, PassesTheShippedGraph) {
    const std::string runner = runnerInDir("day38_runner_hostile_hardcoded");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const day38::cases::GraphCase c = day38::cases::makeGraphCase("word_graph", 0);
    const grading::HostBfs host = grading::bfsHost(c.graph, c.source);
    const grading::GateResult r = day38::cases::evaluate("38.distances", runner, c, host, "edge");
    EXPECT_TRUE(r.passed) << r.message;
}

// Past the guard words only compute-sanitizer sees the write.
TEST(Day38HostileUnderSanitizer, MemcheckCatchesAWritePastTheGuardWords) {
    const std::string runner = runnerInDir("day38_runner_hostile_write_past_guard");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    if (std::system("command -v compute-sanitizer > /dev/null 2>&1") != 0) {
        GTEST_SKIP() << "compute-sanitizer is not on PATH";
    }
    // Three levels: few launches, since memcheck makes each one slow.
    const day38::cases::GraphCase c = day38::cases::makeGraphCase("star", grading::testing::gradingSeed());
    const grading::HostBfs host = grading::bfsHost(c.graph, c.source);
    setenv("GRADING_SANITIZER", "memcheck", 1);
    const grading::GateResult r = day38::cases::evaluate("38.walk", runner, c, host, "edge");
    unsetenv("GRADING_SANITIZER");
    EXPECT_FALSE(r.passed);
    EXPECT_THAT(r.message, ContainsRegex("compute-sanitizer \\(memcheck\\) found an error in `walk --mapping edge "
                                         "on star`.*Invalid __global__ write"));
}

}  // namespace
