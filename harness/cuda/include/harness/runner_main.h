#pragma once
// The runner side of the protocol in harness/runner_client.h: the request
// decoded, the device described, exceptions turned into failure reports with
// the protocol's exit statuses, and the one answer written to the channel
// before the process ends with _exit.
//
//   int main(int argc, char** argv) {
//       return grading::runnerMain(argc, argv, {grading::serve<zdemo::protocol::Scale>(scale)});
//   }
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/protocol.h"
#include "harness/record.h"

namespace grading {

// The request cannot be served as asked (protocol::kBadInput).
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Submitted code broke the runner's contract without a CUDA error: it wrote
// to an input, or left work running on a stream of its own
// (protocol::kContractViolation).
class ContractViolation : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Subcommand {
    std::string name;
    std::function<Record(const Record& request)> handle;
};

// A typed handler: Sub::Result fn(const Sub::Request&).
template <class Sub, class Fn>
Subcommand serve(Fn fn) {
    return {Sub::kName, [fn](const Record& input) {
                Expected<typename Sub::Request> request = protocol::decode<typename Sub::Request>(input);
                if (!request) throw InputError(std::string("the ") + Sub::kName + " request: " + request.error());
                return protocol::encode(fn(request.value()));
            }};
}

// Call from main(). "probe" (the device and nothing else) is always there.
// Never returns: the process ends right after its answer.
[[noreturn]] int runnerMain(int argc, char** argv, std::vector<Subcommand> subcommands);

// A call the submission made that its day's contract refuses (the checked
// calls of harness/cuda/src/checked_calls.cpp): the request fails as a
// contract violation naming the call and why, before any more of the
// submission's code runs. Never returns.
[[noreturn]] void refuseCall(const std::string& call, const std::string& why);

// Prints "at: <where>" to stderr, unbuffered, before work that might hang.
void breadcrumb(const std::string& where);

// Call in a long loop of a call that shares the GPU, where it may wait for
// its work so far: a timed call queued for the GPU then measures now, not
// after the whole of this call (protocol.h, kLendsField). It waits for the
// call's GPU work, then for the measurement if one is waiting. At most every
// kLendIntervalMs; nothing while the call measures exclusively or outside a session.
void lendGpuToMeasurements();

// What a timed call measures, and nothing else: in a session the grader
// holds the GPU exclusively only while one lives, so the call's uploads, checks
// and downloads share it (protocol.h, kTimedSectionsField). One inside
// another joins it. Outside a session the whole call holds the GPU
// exclusively anyway. The first of a timed call also measures the host's
// round trip (DeviceInfo::hostRoundTripUs) while it holds the GPU exclusively.
class TimedSection {
public:
    TimedSection();
    ~TimedSection();
    TimedSection(const TimedSection&) = delete;
    TimedSection& operator=(const TimedSection&) = delete;
};

}  // namespace grading
