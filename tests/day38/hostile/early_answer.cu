// fails: 38.distances
// cases: edge_word_graph
// expect: something other than the runner wrote
// Hostile submission: before main runs, writes an answer of its own to the
// runner's answer channel (fd 3), then lets the runner work as usual. The
// grader reads every byte on the channel: an answer nobody asked for, or two
// answers, are a failure, whichever came first.
#include <unistd.h>

#include <cstring>

#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution

namespace {

const int early = [] {
    const char* record = "gpu-grading-record 1\nend\n";
    return static_cast<int>(write(3, record, std::strlen(record)));
}();

}  // namespace
