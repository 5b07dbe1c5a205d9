// fails: 38.walk
// cases: edge_word_graph
// expect: after walkEdgePerThread \(edge mapping\) on frontier 0: buffer walkOut was written past its end
// Hostile submission: writes one word past the walk's output (a guard
// violation the runner reports), and registers code to run after the runner
// has failed it: an atexit handler and a static object's destructor, each of
// which would write a clean-looking result to the answer channel and end the
// process with status 0. The runner answers once and ends with _exit, so
// neither runs: the guard violation stands.
#include <unistd.h>

#include <cstdlib>
#include <cstring>

// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "bfs_mappings.h"
namespace day38 {
static void referenceLaunchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                                             unsigned int* out, const EdgeScratch& scratch);
}  // namespace day38
#define launchWalkEdgePerThread referenceLaunchWalkEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef launchWalkEdgePerThread

namespace {

void forge() {
    const char* record = "gpu-grading-record 1\nend\n";
    (void)!write(3, record, std::strlen(record));
    _exit(0);
}

struct Forger {
    ~Forger() { forge(); }
} forger;

const int registered = std::atexit(forge);

}  // namespace

namespace day38 {

static __global__ void writeAt(unsigned int* out, size_t index) { out[index] = 1u; }

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int repeats,
                             unsigned int* out, const EdgeScratch& scratch) {
    referenceLaunchWalkEdgePerThread(g, frontier, frontierSize, repeats, out, scratch);
    writeAt<<<1, 1>>>(out, static_cast<size_t>(frontierSize));
}

}  // namespace day38
