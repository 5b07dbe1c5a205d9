#pragma once
// The grading side of the runner protocol. A runner is a small CUDA program
// (one per day, built once with reference/ and once with the submission):
//
//   <runner> <subcommand> --out RESULT [--in INPUT] [args...]
//
// It writes RESULT (a Record, see record.h) and exits 0; or prints
// "error: ..." lines and exits 2 (bad input), 3 (CUDA error), 4 (guard
// words overwritten) or 5 (an input written, work left running); or prints "no-device: <reason>" and exits 77 when there
// is no usable GPU. Before each launch it prints "at: <kernel and where>", so
// a runner killed at its time limit still says which kernel it was in.
//
// The verdict is made here, in the grading process, from RESULT.
#include <string>
#include <vector>

#include "harness/process.h"
#include "harness/record.h"

namespace grading {

namespace runner_exit {
constexpr int kOk = 0;
constexpr int kBadInput = 2;
constexpr int kCudaError = 3;
constexpr int kGuardViolation = 4;
constexpr int kContractViolation = 5;
constexpr int kNoDevice = 77;
}  // namespace runner_exit

// A directory under $TMPDIR (or /tmp), removed with everything in it.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

struct RunnerCall {
    std::string runner;             // executable path
    std::string subcommand;         // e.g. "bfs"
    std::vector<std::string> args;  // e.g. {"--mapping", "edge"}
    double timeLimitSeconds = 60.0;
    const Record* input = nullptr;  // passed as --in when set
    std::string label;              // how messages name the call; default: subcommand + args
};

struct RunnerOutcome {
    enum class Status { Ok, NoDevice, Failed };
    Status status = Status::Failed;
    Record result;
    std::string message;  // why it failed, or why there is no device
    ProcessResult process;

    bool ok() const { return status == Status::Ok; }
    bool noDevice() const { return status == Status::NoDevice; }
};

RunnerOutcome callRunner(const RunnerCall& call);

// The last "at: ..." line a runner printed, or "" if none.
std::string lastBreadcrumb(const std::string& stderrText);

}  // namespace grading
