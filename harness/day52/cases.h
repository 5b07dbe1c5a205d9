#pragma once
// What the day 52 gates grade on: input keys derived from the grading seed
// (inputs.h builds the arrays on both sides), the host references for them,
// and one typed runner call per question. The time limits live here too, in
// one place, each scaled by the work it bounds.
#include <cstdint>
#include <string>
#include <vector>

#include "forkjoin_constants.h"
#include "gates.h"
#include "harness/runner_client.h"
#include "protocol.h"

namespace grading {
struct CaseContext;
}

namespace day52::cases {

// ---- time limits: a correct diamond on a GPU shared with three other
// runners (gpu_slots.h) takes well under a tenth of these.
constexpr double kCallSeconds = 15.0;            // process start, CUDA context, the device query
constexpr double kSecondsPerMebiElement = 0.5;   // one fresh diamond per 2^20 elements: allocation,
                                                 // input, nine launches, guard and input checks, download
constexpr double kHoldSlack = 4.0;               // a held launch sleeps at most 4x its hold (kernels.cu)
// `diamonds` diamonds of kElems elements, each held `holdMsPerDiamond` in all.
double runSeconds(int diamonds, double holdMsPerDiamond = 0.0);

// ---- 52.stress: before each run d_mid is zeroed and the other outputs
// poisoned; the upstream is held kUpstreamHoldMs and one branch, run r's
// heldBranch(r), kBranchHoldMs.
constexpr int kStressRuns = 8;  // every branch is held twice
constexpr double kUpstreamHoldMs = 20.0;
constexpr double kBranchHoldMs = 20.0;
inline int heldBranch(int run) { return run % kBranches; }

// ---- inputs: a key per run, never kCourseInputKey or kHandMadeInputKey, from the seed and what
// the case is (its salt), so no two calls of a grading see the same input;
// SHA-256 of them, so a key tells nothing of the seed.
uint64_t inputKey(uint64_t seed, uint64_t salt, int run);
std::vector<uint64_t> inputKeys(uint64_t seed, uint64_t salt, int runs);
// The host reference for a key's input, computed once per process.
const std::vector<float>& reference(uint64_t key);

// ---- the runner calls
grading::Reply<protocol::Diamond> diamonds(const std::string& runner, const std::vector<uint64_t>& keys,
                                           double limitSeconds);
grading::Reply<protocol::Serial> serial(const std::string& runner, const std::vector<uint64_t>& keys,
                                        double limitSeconds);
grading::Reply<protocol::Stress> stress(const std::string& runner, const std::vector<uint64_t>& keys,
                                        double limitSeconds);
grading::Reply<protocol::NoTiming> noTiming(const std::string& runner, double limitSeconds);
// One shape (protocol::kShapeDiamond or kShapeSerial) timed. Its answer is
// shared (RunnerCall::answerShared): 52.overlap and the report ask the same
// call, and a class asks the course's serial version once.
grading::Reply<protocol::Timing> timing(const std::string& runner, const std::string& shape, uint64_t warmupKey,
                                        uint64_t timedKey, double limitSeconds, bool exclusiveGpu);
grading::Reply<protocol::Broken> broken(const std::string& runner, uint64_t key, double limitSeconds,
                                        bool exclusiveGpu);
// `runs` runs of one shape on inputs made from `key`, timed by the grader's clock.
grading::Reply<protocol::Clocked> clocked(const std::string& runner, const std::string& shape, uint64_t key, int runs,
                                          double limitSeconds, bool exclusiveGpu);
// The work of one timing call: warm-ups and timed runs of one shape.
double timingSeconds();

// ---- 52.overlap's course baseline, timed once a class (InstructorTiming)
// Where a class keeps what the course's serial version measured: `what` is
// "ms", a clocked call's name (its proofs), "sm_count" or "device".
std::string serialBaselineKey(const grading::CaseContext& ctx, const std::string& what);
// The machine 52.overlap's ratio is judged on (its SM count gates it), as
// the course's runner finds it: what a submission's process says of the
// machine decides nothing. A class's instructor.day52 keeps it with the
// serial figures, so a student's test, and its report, start no course
// runner to ask again.
struct CourseMachine {
    int smCount = 0;
    std::string device;
};
CourseMachine courseMachine(const grading::CaseContext& ctx);

// ---- what came back, split per run
std::vector<std::vector<float>> perRun(const std::vector<float>& out, size_t runs);
std::vector<std::vector<Launch>> launchesPerRun(const protocol::RunsResult& r, size_t runs);
std::vector<std::string> splitNames(const std::string& commaList);

}  // namespace day52::cases
