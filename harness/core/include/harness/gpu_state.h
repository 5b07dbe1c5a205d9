#pragma once
// The GPU's clocks, temperature and throttle reasons, read by the grader
// itself through NVML (the driver's management library, loaded at run time,
// so a machine without a driver still builds and runs every host test).
// Timed calls are bracketed by two readings: a time measured while the GPU
// throttled is measured again, and every timed test prints what the GPU did.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace grading {

struct GpuState {
    unsigned smClockMHz = 0;
    unsigned memoryClockMHz = 0;
    unsigned temperatureC = 0;
    uint64_t throttleReasons = 0;  // NVML's clocks-event reason bits

    // Reasons that slow a measurement down (power cap, thermal and hardware
    // slowdowns), as opposed to an idle GPU or clocks set on purpose.
    bool throttled() const;
    std::string throttleText() const;  // "none" or "sw power cap, hw thermal"
};

// The GPU a call runs on, named as CUDA_VISIBLE_DEVICES names it (an index
// or a GPU-... UUID); nullopt when NVML or that GPU is not there.
std::optional<GpuState> readGpuState(const std::string& gpu);

// The device memory held by process `root` and those below it, on every
// GPU (NVML's compute processes, each one's ancestry read from /proc);
// nullopt when NVML cannot tell.
std::optional<uint64_t> deviceMemoryBelow(int root);

// Whether `root` is `pid` or one of its ancestors.
bool descendsFrom(int pid, int root);

// What the GPU did over a test's timed calls: readings before and after each.
struct GpuStateLog {
    std::vector<GpuState> readings;
    int remeasured = 0;  // timed calls run again because the GPU throttled
    std::vector<float> hostRoundTripsUs;  // as each timed call's runner measured it, before the call

    // "SM clock 1980 MHz (1755-1980), 41-47 C, throttled: never" or why there is no reading,
    // then the host's round trips when the runners measured them.
    std::string summary() const;
    // The median of hostRoundTripsUs; nullopt when there are none.
    std::optional<float> hostRoundTripMedianUs() const;
};
GpuStateLog& timedCallGpuLog();

}  // namespace grading
