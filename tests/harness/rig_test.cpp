// The runner rig's checks (harness/cuda) against a stand-in runner
// (rig_runner.cu): each breach a submission can make is caught by its own
// check, with the report kind and the message the grader shows, whether the
// checks wait where they are made or are queued and read after one wait;
// calls that keep the contract, on the default stream or on a blocking
// stream of their own, pass with their output as written and the rest
// poisoned. Needs a GPU: elsewhere each test skips, naming why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "harness/poison.h"
#include "harness/runner_client.h"
#include "rig_protocol.h"

namespace {

namespace proto = rig::protocol;
using ::testing::HasSubstr;

// The stand-in is the harness's own code: no sandbox, one process a call.
class Unsandboxed : public ::testing::Environment {
public:
    void SetUp() override {
        grading::setSandboxPolicy(grading::SandboxPolicy::Off);
        setenv("GRADING_RUNNER_SESSIONS", "0", 1);
    }
};
const ::testing::Environment* const kUnsandboxed = ::testing::AddGlobalTestEnvironment(new Unsandboxed);

class RigChecks : public ::testing::TestWithParam<const char*> {
protected:
    grading::Reply<proto::Check> check(const std::string& scenario) {
        grading::CallOptions options;
        options.timeLimitSeconds = 60.0;
        return grading::call<proto::Check>(RIG_RUNNER, {scenario, GetParam()}, options);
    }
};

#define SKIP_WITHOUT_A_GPU(reply) \
    if ((reply).cannotRunHere()) GTEST_SKIP() << (reply).problem

// What a call that keeps the contract gives back: the live elements as
// written, the rest as poisoned (a read of them is no plausible 0), the count.
void expectKeptTheContract(const grading::Reply<proto::Check>& reply) {
    ASSERT_TRUE(reply.ok()) << reply.problem;
    EXPECT_EQ(reply.result.count, proto::kLive);
    ASSERT_EQ(reply.result.out.size(), static_cast<size_t>(proto::kCount));
    const auto poisoned = static_cast<int32_t>(grading::kPoisonWord);
    for (int i = 0; i < proto::kCount; ++i) {
        EXPECT_EQ(reply.result.out[i], i < proto::kLive ? 3 * i + 1 : poisoned) << "out[" << i << "]";
    }
}

TEST_P(RigChecks, ACallOnTheDefaultStreamPassesWithItsOutputAndTheRestPoisoned) {
    const auto reply = check("clean");
    SKIP_WITHOUT_A_GPU(reply);
    expectKeptTheContract(reply);
}

TEST_P(RigChecks, ACallOnABlockingStreamOfItsOwnPassesThoughItReturnsUnfinished) {
    const auto reply = check("own-blocking-stream");
    SKIP_WITHOUT_A_GPU(reply);
    expectKeptTheContract(reply);
}

struct Breach {
    const char* scenario;
    grading::protocol::FailureKind kind;
    std::string message;
};

TEST_P(RigChecks, EachBreachFailsWithItsKindAndAMessageNamingTheCallAndThePlace) {
    const std::vector<Breach> breaches{
        {"write-before-start", grading::protocol::kGuardViolation,
         "after addOne (write-before-start): buffer out was written before its start, at index -1"},
        {"write-past-end", grading::protocol::kGuardViolation,
         "after addOne (write-past-end): buffer out was written past its end, at index 64 (it holds 64)"},
        {"write-past-live", grading::protocol::kGuardViolation,
         "after addOne (write-past-live): buffer out was written past its live end, at index 48 (48 entries are "
         "live)"},
        {"write-input", grading::protocol::kContractViolation,
         "addOne (write-input) wrote to its input in at index 9 (was 27, now -7)"},
        {"left-running", grading::protocol::kContractViolation,
         "addOne (left-running) left work running on another stream: the launch's count read 0 once the default "
         "stream was done and 48 once the whole device was"},
    };
    for (const Breach& b : breaches) {
        SCOPED_TRACE(b.scenario);
        const auto reply = check(b.scenario);
        SKIP_WITHOUT_A_GPU(reply);
        EXPECT_FALSE(reply.ok());
        EXPECT_TRUE(reply.outcome.process.exitedWith(b.kind.exitCode)) << reply.problem;
        EXPECT_THAT(reply.problem, HasSubstr(b.message));
    }
}

INSTANTIATE_TEST_SUITE_P(WaitedOrQueued, RigChecks, ::testing::Values("strict", "queued"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                             return std::string(p.param) == "strict" ? "Strict" : "Queued";
                         });

}  // namespace
