#pragma once
// A clocked walk's runs (protocol.h, ClockedWalkRequest) and a timed walk's
// later runs (WalkResult), declared once for the runner, which makes them,
// and the grader, which checks them. Run i walks the graph with every
// neighbour id n read as (a * n + b) mod V, a keyed bijection of the
// vertices: the same shape, so the same work, and checksums that no other
// run's give away. A clocked run's proof is the sum, over the run's
// checksums, of a mix of each with its slot and the run's key.
#include <cstdint>

#include "harness/splitmix64.h"

namespace day38 {

struct Relabel {
    uint64_t a = 1;
    uint64_t b = 0;
};

GRADING_HOST_DEVICE inline uint64_t clockedRunKey(uint64_t key, int run) {
    return grading::splitMix64At(key, static_cast<uint64_t>(run));
}

GRADING_HOST_DEVICE inline uint64_t greatestCommonDivisor(uint64_t x, uint64_t y) {
    while (y != 0) {
        const uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x;
}

// a in [1, V) and coprime to V (1 where V < 3), b in [0, V).
GRADING_HOST_DEVICE inline Relabel clockedRelabel(uint64_t key, int run, int vertexCount) {
    const uint64_t v = vertexCount > 0 ? static_cast<uint64_t>(vertexCount) : 1;
    const uint64_t runKey = clockedRunKey(key, run);
    Relabel r;
    r.b = grading::splitMix64Finalize(runKey) % v;
    if (v < 3) return r;
    r.a = 1 + runKey % (v - 1);
    while (greatestCommonDivisor(r.a, v) != 1) r.a = r.a % (v - 1) + 1;
    return r;
}

// Timed run `run` (> 0) of the `frontier`-th frontier of a walk call whose
// key is `key` (protocol.h, WalkResult): its own bijection.
GRADING_HOST_DEVICE inline Relabel timedWalkRelabel(uint64_t key, int frontier, int run, int vertexCount) {
    return clockedRelabel(grading::splitMix64At(key, static_cast<uint64_t>(frontier)), run, vertexCount);
}

GRADING_HOST_DEVICE inline int relabelled(const Relabel& r, int vertex, int vertexCount) {
    return static_cast<int>((r.a * static_cast<uint64_t>(vertex) + r.b) % static_cast<uint64_t>(vertexCount));
}

// One checksum's share of its run's proof: order does not matter, so the
// device adds them in any order and the sum wraps around.
GRADING_HOST_DEVICE inline uint64_t clockedProofTerm(uint64_t runKey, uint64_t slot, uint32_t checksum) {
    return grading::splitMix64Finalize(runKey ^ ((slot << 32) | checksum));
}

}  // namespace day38
