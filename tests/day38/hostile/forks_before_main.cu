// fails: 38.distances
// expect: was stopped by the sandbox's system-call filter: it called clone without CLONE_THREAD \(a new process: a runner makes threads only\)
// Hostile submission: the solution, and a constructor that forks before the
// runner's main: a process that would hold the runner's channel and could
// rewrite its answers (times, the SM count), or keep the GPU busy while a
// baseline is timed. The runner's system-call filter is in place before any
// constructor, so the fork ends the runner, and every call names the call.
#include <unistd.h>

#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution

namespace {
[[maybe_unused]] const pid_t helper = [] {
    const pid_t p = fork();
    if (p == 0) {
        pause();
        _exit(0);
    }
    return p;
}();
}  // namespace
