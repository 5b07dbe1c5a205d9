// Day 38 exercise: expand a BFS frontier with one thread per frontier EDGE.
//
// Write the two kernels and the two launchers below. Their contracts are in
// reference/day38/bfs_mappings.h; the thread and warp mappings in
// reference/day38/ are working examples of the same job. Grade yourself with
// the command in README.md: every 38.* gate runs your kernels on the course's
// word graph and on graphs you have not seen.
//
// Define only what is asked for here. Helpers of your own go in an anonymous
// namespace or are static: the build refuses any other name the file
// defines, and day38.builds names it.
//
// Hint 1: with one thread per edge no warp waits on a wide vertex. What does a
// thread need, computed before the launch, to find which frontier vertex its
// edge belongs to from nothing but its own index?
// Hint 2: an exclusive scan of the frontier's degrees gives, for each frontier
// vertex, the first edge index it owns, and it is sorted. Edge e belongs to
// the last entry that is not greater than e. The caller hands you scratch
// space for the scan (EdgeScratch: room for frontierSize + 1 ints and storage
// for cub::DeviceScan::ExclusiveSum); exclusiveSumInPlace in bfs_mappings.h
// runs that scan for you and keeps CUB's headers out of this file's build.
//
// Pitfalls the gates will catch:
//  - Claim with atomicCAS (claimVertex in reference/day38/claim.cuh does it).
//    A plain `if (dist[v] < 0)` gives correct distances and a frontier full of
//    duplicates: 38.frontier_total fails.
//  - An off-by-one in the search hands edges to the neighbouring vertex:
//    38.distances names the first vertex that came out wrong.
//  - Vertices of degree zero repeat a start value; "the last entry" matters.
//  - The walk must visit exactly the edges the search would, every repeat:
//    38.walk compares a per-vertex checksum exactly.
//  - Append at the slot atomicAdd returned, nothing past it: the runner poisons
//    the words after the frontier's live end and reports any write there.
#include "bfs_mappings.h"
#include "claim.cuh"
#include "harness/cuda_check.h"

namespace day38 {

__global__ void bfsExpandEdgePerThread(const int* __restrict__ frontier,
                                       const int* __restrict__ edgeStart, int frontierSize,
                                       int totalEdges, const int* __restrict__ rowOffsets,
                                       const int* __restrict__ colIndices, int* __restrict__ dist,
                                       int level, int* __restrict__ nextFrontier,
                                       unsigned int* __restrict__ nextSize) {
    // TODO: find this thread's edge, read its neighbour, claim it.
}

__global__ void walkEdgePerThread(const int* __restrict__ frontier,
                                  const int* __restrict__ edgeStart, int frontierSize,
                                  int totalEdges, const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats,
                                  unsigned int* __restrict__ out) {
    // TODO: add (neighbour ^ r) for every repeat r into out[owner].
}

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    // TODO: degrees -> exclusive scan -> edge total -> launch bfsExpandEdgePerThread.
}

void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize,
                             int repeats, unsigned int* out, const EdgeScratch& scratch) {
    // TODO: zero out, scan the degrees as above, launch walkEdgePerThread.
}

}  // namespace day38
