#pragma once
// The instructor-only device-driven search (solution/device_bfs.cu): the
// whole BFS in one cooperative launch, the levels separated by grid-wide
// barriers instead of host round trips. Not part of the course's API. The
// reference runner links the real one and serves it as mapping "device";
// every other runner (the stub, a submission, a planted or hostile file)
// links device_absent.cpp, whose version says it is not there. Its gate
// cases are instructor cases (student = false): the reference suite only.
#include <cstddef>

namespace day38 {

struct DeviceCsr;  // bfs_mappings.h; only declared here, so the grader (plain C++) can read kDeviceSearchAbsent

// How device_absent.cpp's message begins; the report reads it.
constexpr const char* kDeviceSearchAbsent = "the device-driven search is not in this runner";

// A level's work is a list of chunks of at most this many edges of one
// vertex, one warp each, one lane per edge.
constexpr int kDeviceChunkEdges = 32;

// Chunks a chunk list may have to hold: every vertex appears in one level,
// with at most degree / kDeviceChunkEdges + 1 chunks.
inline size_t deviceChunkCapacity(int vertexCount, size_t directedEdges) {
    return static_cast<size_t>(vertexCount) + directedEdges / kDeviceChunkEdges + 1;
}

// What the search needs besides the graph, owned by the caller.
struct DeviceSearchBuffers {
    int* dist;                  // vertexCount; -1 where unreached afterwards
    int* chunks[2];             // 2 * deviceChunkCapacity ints each: level k's [first, end) edge pairs in chunks[k % 2]
    unsigned int* levelSize;    // vertexCount + 2: the frontier size of each level
    unsigned int* chunkCount;   // vertexCount + 2: the chunks of each level
    int* outcome;               // 2: the levels searched, 1 when it ran away
};

struct DeviceSearchOptions {
    int blocks = 0;  // 0: sized from the graph (a block per SM at least), at most what can be co-resident
};

struct DeviceSearchOutcome {
    int levels = 0;        // non-empty frontiers: levelSize[0 .. levels) holds their sizes
    bool runaway = false;  // still going after vertexCount levels (a bug, never a graph)
};

// Runs the whole search from `source` on the default stream and waits for
// it: the one round trip is reading the outcome back. directedEdges is
// colIndices' length (it sizes the grid). Throws grading::CudaError; the
// absent version throws grading::InputError.
DeviceSearchOutcome deviceDrivenBfs(const DeviceCsr& g, size_t directedEdges, int source,
                                    const DeviceSearchBuffers& b, const DeviceSearchOptions& options = {});

}  // namespace day38
