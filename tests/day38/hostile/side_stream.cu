// fails: 38.distances
// cases: edge_word_graph
// expect: the submission called cudaStreamCreateWithFlags with cudaStreamNonBlocking: a non-blocking stream does not wait for the legacy default stream
// Hostile submission: does the right work, but on a non-blocking stream of
// its own, behind a slow kernel, and returns without synchronizing. The seal
// sends the file's stream creation to the runner's checked version, which
// refuses a non-blocking stream as it is made: its work would not wait for
// the inputs the runner queues on the legacy stream, and could outlive the
// call. (A blocking stream of its own is fine: own_blocking_stream.cu.)
// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "bfs_mappings.h"
namespace day38 {
static void referenceExpandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                                         const LevelOutput& out, const EdgeScratch& scratch);
}  // namespace day38
#define expandEdgePerThread referenceExpandEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef expandEdgePerThread

namespace day38 {

__device__ unsigned dawdleSink;

// Work, not a wait on clock64: that is each SM's own counter, so a warp
// preempted (another process's kernel on the GPU) and resumed on another SM
// can wait far longer than asked. Once on the H200 this test's call ran into
// its 5.9 s limit beside another test's hung kernel, the most likely cause.
static __global__ void dawdle(int rounds) {
    unsigned x = threadIdx.x;
    for (int i = 0; i < rounds; ++i) x = x * x + 1013904223u;  // not linear: no two steps fold into one
    if (x == 1u) dawdleSink = x;  // a use of x, so the loop stays
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    static cudaStream_t side = [] {
        cudaStream_t s = nullptr;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        return s;
    }();
    const int totalEdges = scanFrontierDegrees(g, frontier, frontierSize, scratch);
    if (totalEdges == 0) return;
    dawdle<<<1, 1, 0, side>>>(20000000);  // a dependent chain of 20M multiply-adds: tens of ms of the GPU's time
    bfsExpandEdgePerThread<<<blocksFor(totalEdges, kThreadsPerBlock), kThreadsPerBlock, 0, side>>>(
        frontier, scratch.edgeStart, frontierSize, totalEdges, g.rowOffsets, g.colIndices, out.dist, level,
        out.nextFrontier, out.nextSize);
}

}  // namespace day38
