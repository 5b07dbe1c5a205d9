#pragma once
// The stand-in rig runner's protocol (rig_runner.cu, rig_test.cpp): one
// kernel, made to break the runner's contract one way per scenario, checked
// as a day's runner checks a call, strictly or with its checks queued.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/protocol.h"

namespace rig::protocol {

constexpr int32_t kCount = 64;  // elements of `in` and of `out`
constexpr int32_t kLive = 48;   // what a correct launch writes of `out`, and counts
constexpr int32_t kWrittenInputIndex = 9;

// How the launch misbehaves. "clean" and "own-blocking-stream" keep the
// contract; each other breaks one check.
inline const grading::protocol::OneOf kScenarios{{"clean", "own-blocking-stream", "write-before-start",
                                                 "write-past-end", "write-past-live", "write-input",
                                                 "left-running"}};
// "strict": each check waited for where it is made; "queued": every check
// queued behind the launch and read after one wait.
inline const grading::protocol::OneOf kModes{{"strict", "queued"}};

struct CheckRequest {
    std::string scenario;
    std::string mode;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("scenario", s.scenario, kScenarios);
        field("mode", s.mode, kModes);
    }
};

struct CheckResult {
    std::vector<int32_t> out;  // all kCount elements, the unwritten ones as poisoned
    int64_t count = 0;         // the launch's count, once the device was idle

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("out", s.out);
        field("count", s.count);
    }
};

struct Check {
    static constexpr const char* kName = "check";
    using Request = CheckRequest;
    using Result = CheckResult;
};

}  // namespace rig::protocol
