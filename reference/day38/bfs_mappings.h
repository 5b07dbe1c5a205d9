#pragma once
// Day 38: the three ways to map a BFS frontier onto threads, and the walk
// kernels that time one level on its own. Declared once; the reference
// (reference/day38) and the exercise (exercises/day38/edge_mapping.cu, or a
// student's copy of it) both implement these, and the day 38 runner calls them.
#include <cuda_runtime.h>

#include <cstddef>

#include "bfs_constants.h"

namespace day38 {

// The graph in CSR, on the device. rowOffsets has vertexCount + 1 entries.
struct DeviceCsr {
    const int* rowOffsets;
    const int* colIndices;
    int vertexCount;
};

// Where one level's expansion writes: the distance array and the next
// frontier with its counter (zeroed by the caller before each level).
struct LevelOutput {
    int* dist;
    int* nextFrontier;  // room for vertexCount + 2 * edges entries
    unsigned int* nextSize;
};

// Scratch for the one-thread-per-edge mapping, owned by the caller.
// edgeStart has room for frontierSize + 1 ints (at most vertexCount + 1);
// scanStorage is large enough for cub::DeviceScan::ExclusiveSum over
// vertexCount + 1 ints (query with that call and a null pointer).
struct EdgeScratch {
    int* edgeStart;
    void* scanStorage;
    size_t scanStorageBytes;
};

// The day 32 scan, ready made: values[0..count) replaced by their exclusive
// sum (cub::DeviceScan::ExclusiveSum in scratch.scanStorage), on the default
// stream. It is built once with the course's code, so a file that calls it
// instead of including CUB compiles in about two seconds, not ten.
void exclusiveSumInPlace(int* values, int count, const EdgeScratch& scratch);

// ---- the course's kernels (reference/day38/thread_mapping.cu, warp_mapping.cu)

// One thread per frontier vertex. Launch: gridDim.x * blockDim.x >= frontierSize.
__global__ void bfsExpandThreadPerVertex(const int* __restrict__ frontier, int frontierSize,
                                         const int* __restrict__ rowOffsets,
                                         const int* __restrict__ colIndices, int* __restrict__ dist,
                                         int level, int* __restrict__ nextFrontier,
                                         unsigned int* __restrict__ nextSize);
// One warp per frontier vertex. Launch: gridDim.x * blockDim.x >= 32 * frontierSize.
__global__ void bfsExpandWarpPerVertex(const int* __restrict__ frontier, int frontierSize,
                                       const int* __restrict__ rowOffsets,
                                       const int* __restrict__ colIndices, int* __restrict__ dist,
                                       int level, int* __restrict__ nextFrontier,
                                       unsigned int* __restrict__ nextSize);
// out[k] = sum over repeats r and neighbours n of frontier[k] of (n ^ r).
__global__ void walkThreadPerVertex(const int* __restrict__ frontier, int frontierSize,
                                    const int* __restrict__ rowOffsets,
                                    const int* __restrict__ colIndices, int repeats,
                                    unsigned int* __restrict__ out);
__global__ void walkWarpPerVertex(const int* __restrict__ frontier, int frontierSize,
                                  const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats,
                                  unsigned int* __restrict__ out);

// ---- the exercise: one thread per frontier edge (exercises/day38/edge_mapping.cu)
//
// What the exercise may rely on, and what it may leave behind. The runner
// calls the two launchers (expandEdgePerThread, launchWalkEdgePerThread),
// never the kernels themselves.
//  - Stream: one host thread calls, and expects the work on the legacy
//    default stream. A launcher may wait for the GPU (to read its edge
//    total); once it returns, none of its work may run but what the legacy
//    stream waits for, and no thread of its may run on the host.
//  - What it may use: the CUDA runtime API, CUB (cub::DeviceScan into
//    scratch.scanStorage, block and warp primitives), Thrust with an
//    execution policy, libcu++ (cuda::atomic_ref, cuda::std) and cooperative
//    groups. A stream of its own must be blocking (cudaStreamCreate, or the
//    default flags), its work finished or waited for by the legacy stream
//    (an event) before the launcher returns: a non-blocking stream fails the
//    call as it is made, since it would not wait for what the runner queues
//    on the legacy stream. Host callbacks, the driver API and its entry
//    points stop the build; loading a library or looking a function up at
//    run time fails the call. The file defines the four exercise names and
//    nothing else with external linkage (helpers static or in an anonymous
//    namespace), the two kernels as __global__ functions.
//  - Launch shapes: the launcher picks each kernel's grid and block; every
//    edge of the level must be walked whatever its size. A frontier holds up
//    to V vertices and a level up to 2E edges: the graded graphs go past
//    65,536 vertices in a frontier and 2^21 edges in a level.
//  - Buffers: any pointer may differ from the last call's, and the same
//    address may come back holding another graph, frontier or distances: a
//    decoy search or level first, a new source for each timed search, each
//    timed walk's frontier rotated its own way, a smaller graph after a
//    larger one. Keep no result, size or pointer for a later call; a
//    resource of its own kept across calls (a pinned word, say) is fine
//    while no answer depends on what it held.
//  - Writes: dist (an unreached vertex to level + 1, once), nextFrontier
//    below the count that atomicAdd on nextSize handed out (nextSize zeroed
//    by the caller), out[0, frontierSize) (not zeroed by the caller), and
//    the scratch. Nothing else: the graph and the frontier are inputs, and
//    the words around every buffer and past the frontier's live end are
//    checked after each call.
//  - Left behind: the scratch's contents, which the next call must not
//    read before writing (the runner poisons edgeStart before each checked
//    call); no error, no work in flight.
//  - Timed calls look like checked calls (the same context, stream and
//    buffers), and every timed run's result is checked.

// Thread e (0 <= e < totalEdges) owns the frontier vertex i whose slice
// [edgeStart[i], edgeStart[i + 1]) holds e, reads that vertex's
// (e - edgeStart[i])-th neighbour and claims it. The solution launches
// gridDim.x * blockDim.x >= totalEdges; a launcher of another shape brings
// a kernel that covers every edge with it (a grid-stride loop, say).
__global__ void bfsExpandEdgePerThread(const int* __restrict__ frontier,
                                       const int* __restrict__ edgeStart, int frontierSize,
                                       int totalEdges, const int* __restrict__ rowOffsets,
                                       const int* __restrict__ colIndices, int* __restrict__ dist,
                                       int level, int* __restrict__ nextFrontier,
                                       unsigned int* __restrict__ nextSize);
// Same walk as walkThreadPerVertex, one thread per edge; out must be zeroed first.
__global__ void walkEdgePerThread(const int* __restrict__ frontier,
                                  const int* __restrict__ edgeStart, int frontierSize,
                                  int totalEdges, const int* __restrict__ rowOffsets,
                                  const int* __restrict__ colIndices, int repeats,
                                  unsigned int* __restrict__ out);

// ---- launchers: one level of the search, or one walk, on the default stream.
// Each returns once the work is queued (the edge mapping may synchronize to
// read its edge total). The runner checks errors and guard words after each.
void expandThreadPerVertex(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                           const LevelOutput& out);
void expandWarpPerVertex(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out);
void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch);

void launchWalkThreadPerVertex(const DeviceCsr& g, const int* frontier, int frontierSize,
                               int repeats, unsigned int* out);
void launchWalkWarpPerVertex(const DeviceCsr& g, const int* frontier, int frontierSize,
                             int repeats, unsigned int* out);
void launchWalkEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize,
                             int repeats, unsigned int* out, const EdgeScratch& scratch);

}  // namespace day38
