#pragma once
// Claim v for the next level and append it exactly once. atomicCAS makes one
// thread the owner; a plain `if (dist[v] < 0)` test writes the same distance
// from every racing thread and then appends v once per racer, so the
// distances stay right while the frontier fills with duplicates.
namespace day38 {

__device__ __forceinline__ void claimVertex(int v, int level, int* dist, int* nextFrontier,
                                            unsigned int* nextSize) {
    if (atomicCAS(&dist[v], -1, level + 1) == -1) {
        nextFrontier[atomicAdd(nextSize, 1u)] = v;
    }
}

inline int blocksFor(size_t threads, int threadsPerBlock) {
    return static_cast<int>((threads + threadsPerBlock - 1) / threadsPerBlock);
}

}  // namespace day38
