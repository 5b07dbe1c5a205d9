#pragma once
// The device memory a runner's submission holds through allocations of its
// own, kept by the runner's checked allocation calls (checked_calls.cpp), so
// that an allocation past what a runner may hold is refused as it is asked,
// before it takes memory the runners graded beside it need. The grader's
// reading of each runner's memory from outside (runnerMemoryBound,
// runner_client.h) stays the bound's guarantee; this keeps the neighbours
// whole meanwhile.
#include <cstdint>
#include <string>
#include <unordered_map>

namespace grading {

// A bound of `gib` GiB in bytes, as GRADING_RUNNER_GPU_MEMORY_GIB sets it:
// 16 GiB when unset (nullptr or empty), 0 (no bound) for 0 or less.
uint64_t deviceMemoryBound(const char* gib);
// GRADING_RUNNER_GPU_MEMORY_GIB's bound, from this process's environment.
uint64_t deviceMemoryBoundFromEnvironment();

class DeviceMemoryLedger {
public:
    explicit DeviceMemoryLedger(uint64_t bound) : bound_(bound) {}

    // Why `bytes` more may not be allocated, or "" when they may.
    std::string refusal(uint64_t bytes) const;
    void add(const void* p, uint64_t bytes);
    // What `p` held is free again; a pointer the ledger never saw (the
    // runner's own, or none) changes nothing.
    void remove(const void* p);
    uint64_t held() const { return held_; }

private:
    uint64_t bound_;
    uint64_t held_ = 0;
    std::unordered_map<const void*, uint64_t> sizes_;
};

}  // namespace grading
