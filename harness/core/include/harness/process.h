#pragma once
// Starts a child process with a time limit and captures what it prints. The
// child gets its own process group so a kill reaches anything it started.
#include <map>
#include <string>
#include <vector>

namespace grading {

struct ProcessResult {
    bool started = false;     // false: exec failed (startError says why)
    std::string startError;
    bool timedOut = false;    // killed at the limit
    int exitCode = -1;        // valid when the child exited by itself
    int signal = 0;           // non-zero when a signal ended it
    std::string out;          // stdout (kept up to a cap, see truncated)
    std::string err;          // stderr
    bool truncated = false;
    double seconds = 0.0;

    bool exitedWith(int code) const { return started && !timedOut && signal == 0 && exitCode == code; }
};

struct ProcessOptions {
    double timeLimitSeconds = 60.0;
    std::map<std::string, std::string> environment;  // added to the parent's
    std::string workingDirectory;                    // empty: inherit
    size_t outputCap = 4u << 20;                     // bytes kept per stream
};

ProcessResult runProcess(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// "exit status 3", "killed by signal 11 (Segmentation fault)",
// "killed at the time limit after 20 s".
std::string describeEnd(const ProcessResult& r);

}  // namespace grading
