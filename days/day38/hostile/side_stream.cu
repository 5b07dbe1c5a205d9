// fails: 38.frontier_total
// cases: edge_word_graph
// expect: expandEdgePerThread \(edge mapping\) at level [0-9]+ left work running on another stream
// Hostile submission: does the right work, but on a non-blocking stream of
// its own, behind a slow kernel, and returns without synchronizing. The
// runner reads the level's count when the default stream is done and again
// when the whole device is: they differ, and it says work was left running.
#define expandEdgePerThread referenceExpandEdgePerThread
#include "../solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef expandEdgePerThread

namespace day38 {

__global__ void dawdle(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
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
    dawdle<<<1, 1, 0, side>>>(100000000);  // about 50 ms
    bfsExpandEdgePerThread<<<blocksFor(totalEdges, kThreadsPerBlock), kThreadsPerBlock, 0, side>>>(
        frontier, scratch.edgeStart, frontierSize, totalEdges, g.rowOffsets, g.colIndices, out.dist, level,
        out.nextFrontier, out.nextSize);
}

}  // namespace day38
