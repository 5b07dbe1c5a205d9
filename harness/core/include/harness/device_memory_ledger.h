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

// The grader's setting of what a runner may hold, in GiB; runnerMemoryBound
// (runner_client.h) reads it in the grader, the runner as it starts.
inline constexpr const char* kDeviceMemoryBoundVariable = "GRADING_RUNNER_GPU_MEMORY_GIB";
inline constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
// Why memory past the bound is refused, or its runner ended: both say so.
inline constexpr const char* kNeighboursNeedTheMemory =
    "memory it keeps is memory the runners graded beside it cannot have";

// A bound of `gib` GiB in bytes, as kDeviceMemoryBoundVariable sets it: 16
// GiB when unset (nullptr or empty), 0 (no bound) for 0 or less.
uint64_t deviceMemoryBound(const char* gib);

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
