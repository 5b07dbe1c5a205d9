// fails: 38.distances
// cases: edge_word_graph
// expect: the runner answered "no usable CUDA device: .*", but the course's runner, with no submitted code, runs here
// Hostile submission: before main, it answers whatever it was asked with the
// runner's own "no usable CUDA device" failure and ends with its status, so
// that every gate would read NOT RUN ("could not grade on this machine")
// instead of FAIL. Whether the machine can grade is the grader's word, from
// the course's runner: the probe fails, naming the lie.
#include <unistd.h>

#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution

namespace {

[[gnu::constructor]] void claimNoDevice() {
    static const char answer[] =
        "gpu-grading-record 1\n"
        "failure str 52\nno NVIDIA GPU found: the CUDA runtime sees 0 devices\n"
        "failure_kind str 9\nno-device\n"
        "end\n";
    (void)!write(3, answer, sizeof answer - 1);
    _exit(77);
}

}  // namespace
