// fails: 38.distances
// cases: edge_word_graph
// expect: the runner answered "no usable CUDA device: .*", but the course's runner, with no submitted code, runs here
// Hostile submission: before main, it answers whatever it was asked with the
// runner's own "no usable CUDA device" failure and ends with its status, so
// that every gate would read NOT RUN ("could not grade on this machine")
// instead of FAIL. Whether the machine can grade is the grader's word, from
// the course's runner: the probe fails, naming the lie.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution

namespace {

// The runner's own failure record for "no usable CUDA device", framed as a
// session's answers are when the runner was started for a session.
[[gnu::constructor]] void claimNoDevice() {
    static const char record[] =
        "gpu-grading-record 1\n"
        "failure str 52\nno NVIDIA GPU found: the CUDA runtime sees 0 devices\n"
        "failure_kind str 9\nno-device\n"
        "end\n";
    std::ifstream cmdline("/proc/self/cmdline");
    const std::string args((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
    std::string answer(record, sizeof record - 1);
    if (args.find("--session") != std::string::npos) answer = "frame " + std::to_string(answer.size()) + "\n" + answer;
    (void)!write(3, answer.data(), answer.size());
    _exit(77);
}

}  // namespace
