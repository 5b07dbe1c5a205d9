#pragma once
// Starts a child process with a time limit and captures what it prints. The
// child gets its own process group so a kill reaches anything it started, and
// inherits no descriptor of ours but stdin (/dev/null), stdout, stderr and,
// when asked for, the channel on fd 3.
#include <map>
#include <utility>
#include <optional>
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
    std::string channel;      // what the child wrote to fd 3 (ProcessOptions::channel)
    bool channelOverflow = false;  // it wrote more than channelCap: the rest was dropped
    bool truncated = false;
    double seconds = 0.0;

    bool exitedWith(int code) const { return started && !timedOut && signal == 0 && exitCode == code; }
};

// The size a child's stdin and channel pipes are made (best effort): 1 MiB,
// what an unprivileged process may ask for (fs.pipe-max-size's default).
constexpr int kLargePipeBytes = 1 << 20;
// What a child's channel keeps by default (ProcessOptions::channelCap), so
// the largest answer a frame can carry.
constexpr size_t kChannelCapBytes = size_t{1} << 30;

struct ProcessOptions {
    double timeLimitSeconds = 60.0;
    std::map<std::string, std::string> environment;  // added to the parent's
    // Start from an empty environment instead: only `environment` and the
    // parent's variables named in `inherit` reach the child.
    bool cleanEnvironment = false;
    std::vector<std::string> inherit;
    std::string workingDirectory;                    // empty: inherit
    size_t outputCap = 4u << 20;                     // bytes kept per stream (the tail)
    std::vector<std::pair<int, unsigned long long>> rlimits;  // (RLIMIT_*, value) set in the child
    std::string cgroupProcs;                         // a cgroup.procs file the child joins before exec
    bool channel = false;                            // a pipe on the child's fd 3, read into `channel`
    size_t channelCap = kChannelCapBytes;            // bytes kept of it (the head)
    // When set, a pipe on the child's fd 4 holding these bytes, then its end
    // (the runner's system-call filter; at most a pipe's 64 KiB).
    std::string bytesOnFd4;
};

// Runs argv to its end or to the time limit, which kills its process group
// and every process below it, in whatever session or PID namespace (a
// sandbox's), and returns once those have ended too.
ProcessResult runProcess(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// Appends a stream's bytes keeping its tail (the last lines say where the
// child was): at least the last `cap` bytes and at most twice that, so that a
// child flooding a stream costs a copy of each byte once or twice, not a move
// of the whole kept tail for every 64 KiB read (lab/bench/output_drain.cpp);
// keepTails then trims each stream to its last `cap`. Sets *truncated once
// more than `cap` bytes came.
void appendCapped(std::string* dst, const char* data, size_t n, size_t cap, bool* truncated);
void keepTails(ProcessResult& p, size_t cap);

// A child started and left running, for a conversation over its stdin and
// fd 3 (a runner session): its descriptors are the caller's to read, write
// and close; stopChild ends it.
struct Child {
    int pid = -1;
    int input = -1;    // the child's stdin, or -1
    int out = -1;      // its stdout
    int err = -1;      // its stderr
    int channel = -1;  // its fd 3, or -1
    std::string startError;
    bool started() const { return pid > 0; }
};
Child startChild(const std::vector<std::string>& argv, const ProcessOptions& options, bool withInput);
// Kills the child's group and every process below it (as runProcess's
// limit does), waits for them to end, and reaps the child; returns its wait status.
int stopChild(Child& child);

// A process as /proc shows it to the grader, whatever it calls itself.
struct TreeProcess {
    int pid = 0;
    int parent = 0;
    std::string name;                // its comm, for a message
    unsigned long long started = 0;  // clock ticks after boot
    bool ended = false;              // a zombie, not yet reaped
};
// Every process below `root` (its children, theirs, ...), read from /proc:
// what a process started, however it renamed itself.
std::vector<TreeProcess> processesBelow(int root);
// The threads of process `pid` (/proc/<pid>/task), its main thread's id
// being `pid`; their parent field is the process's parent.
std::vector<TreeProcess> threadsOf(int pid);

// A mapping of process `pid` that may run as code, read from
// /proc/<pid>/maps: its address range and what backs it ("" anonymous,
// "[vdso]", a path, " (deleted)" after one unlinked).
struct CodeMapping {
    std::string range;
    std::string backing;
};
// Every executable mapping of `pid`; nullopt when its map cannot be read
// (it ended, or is not ours to read).
std::optional<std::vector<CodeMapping>> codeMappingsOf(int pid);

// "exit status 3", "killed by signal 11 (Segmentation fault)",
// "killed at the time limit after 20 s".
std::string describeEnd(const ProcessResult& r);

}  // namespace grading
