#include "harness/gpu_state.h"

#include <dlfcn.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "harness/text.h"
#include "harness/timing_stats.h"

namespace grading {
namespace {

// The few NVML entry points used, declared here (nvml.h is not on every
// build machine); their ABI has been stable since NVML 2.
using nvmlReturn = int;
using nvmlDevice = struct nvmlDeviceOpaque*;
constexpr nvmlReturn kNvmlSuccess = 0;
constexpr int kClockSm = 1;
constexpr int kClockMemory = 2;
constexpr int kTemperatureGpu = 0;

// nvmlProcessInfo_t of nvmlDeviceGetComputeRunningProcesses_v3.
struct ProcessInfo {
    unsigned pid;
    unsigned long long usedGpuMemory;
    unsigned gpuInstanceId;
    unsigned computeInstanceId;
};
constexpr unsigned long long kNvmlValueNotAvailable = ~0ull;
constexpr nvmlReturn kNvmlInsufficientSize = 7;

struct Nvml {
    nvmlReturn (*init)() = nullptr;
    nvmlReturn (*byIndex)(unsigned, nvmlDevice*) = nullptr;
    nvmlReturn (*byUuid)(const char*, nvmlDevice*) = nullptr;
    nvmlReturn (*clock)(nvmlDevice, int, unsigned*) = nullptr;
    nvmlReturn (*temperature)(nvmlDevice, int, unsigned*) = nullptr;
    nvmlReturn (*reasons)(nvmlDevice, unsigned long long*) = nullptr;
    nvmlReturn (*count)(unsigned*) = nullptr;
    nvmlReturn (*processes)(nvmlDevice, unsigned*, ProcessInfo*) = nullptr;
    bool ready = false;
};

template <class F>
void bind(void* lib, F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
}

const Nvml& nvml() {
    static const Nvml n = [] {
        Nvml n;
        void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) return n;
        bind(lib, n.init, "nvmlInit_v2");
        bind(lib, n.byIndex, "nvmlDeviceGetHandleByIndex_v2");
        bind(lib, n.byUuid, "nvmlDeviceGetHandleByUUID");
        bind(lib, n.clock, "nvmlDeviceGetClockInfo");
        bind(lib, n.temperature, "nvmlDeviceGetTemperature");
        bind(lib, n.reasons, "nvmlDeviceGetCurrentClocksEventReasons");
        if (n.reasons == nullptr) bind(lib, n.reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
        bind(lib, n.count, "nvmlDeviceGetCount_v2");
        bind(lib, n.processes, "nvmlDeviceGetComputeRunningProcesses_v3");
        n.ready = n.init && n.byIndex && n.byUuid && n.clock && n.temperature && n.reasons && n.init() == kNvmlSuccess;
        return n;
    }();
    return n;
}

struct Reason {
    uint64_t bit;
    const char* name;
    bool slows;
};
constexpr Reason kReasons[] = {
    {0x1, "idle", false},           {0x2, "application clocks", false}, {0x4, "sw power cap", true},
    {0x8, "hw slowdown", true},     {0x10, "sync boost", false},        {0x20, "sw thermal", true},
    {0x40, "hw thermal", true},     {0x80, "hw power brake", true},     {0x100, "display clocks", false},
};

}  // namespace

bool GpuState::throttled() const {
    return std::any_of(std::begin(kReasons), std::end(kReasons),
                       [&](const Reason& r) { return r.slows && (throttleReasons & r.bit) != 0; });
}

std::string GpuState::throttleText() const {
    std::string out;
    for (const Reason& r : kReasons) {
        if (r.slows && (throttleReasons & r.bit) != 0) out += (out.empty() ? "" : ", ") + std::string(r.name);
    }
    return out.empty() ? "none" : out;
}

std::optional<GpuState> readGpuState(const std::string& gpu) {
    const Nvml& n = nvml();
    if (!n.ready) return std::nullopt;
    nvmlDevice device = nullptr;
    const bool isIndex = !gpu.empty() && gpu.find_first_not_of("0123456789") == std::string::npos;
    const nvmlReturn found = isIndex ? n.byIndex(static_cast<unsigned>(std::stoul(gpu)), &device)
                                     : n.byUuid(gpu.c_str(), &device);
    if (found != kNvmlSuccess) return std::nullopt;
    GpuState s;
    unsigned long long reasons = 0;
    if (n.clock(device, kClockSm, &s.smClockMHz) != kNvmlSuccess ||
        n.clock(device, kClockMemory, &s.memoryClockMHz) != kNvmlSuccess ||
        n.temperature(device, kTemperatureGpu, &s.temperatureC) != kNvmlSuccess ||
        n.reasons(device, &reasons) != kNvmlSuccess) {
        return std::nullopt;
    }
    s.throttleReasons = reasons;
    return s;
}

namespace {

// `pid`'s parent, from /proc; 0 when it is gone.
int parentOf(int pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return 0;
    const size_t close = line.rfind(')');  // the name may hold spaces and parentheses
    std::istringstream rest(close == std::string::npos ? "" : line.substr(close + 1));
    char state = 0;
    int parent = 0;
    rest >> state >> parent;
    return parent;
}

}  // namespace

bool descendsFrom(int pid, int root) {
    for (int depth = 0; depth < 64 && pid > 1; ++depth, pid = parentOf(pid)) {
        if (pid == root) return true;
    }
    return false;
}

std::optional<uint64_t> deviceMemoryBelow(int root) {
    const Nvml& n = nvml();
    unsigned devices = 0;
    if (!n.ready || n.count == nullptr || n.processes == nullptr || n.count(&devices) != kNvmlSuccess) return std::nullopt;
    uint64_t held = 0;
    for (unsigned d = 0; d < devices; ++d) {
        nvmlDevice device = nullptr;
        if (n.byIndex(d, &device) != kNvmlSuccess) continue;
        std::vector<ProcessInfo> infos(64);
        unsigned found = static_cast<unsigned>(infos.size());
        nvmlReturn r = n.processes(device, &found, infos.data());
        if (r == kNvmlInsufficientSize) {
            infos.resize(found + 64);
            found = static_cast<unsigned>(infos.size());
            r = n.processes(device, &found, infos.data());
        }
        if (r != kNvmlSuccess) return std::nullopt;
        for (unsigned k = 0; k < found && k < infos.size(); ++k) {
            if (infos[k].usedGpuMemory != kNvmlValueNotAvailable && descendsFrom(static_cast<int>(infos[k].pid), root)) {
                held += infos[k].usedGpuMemory;
            }
        }
    }
    return held;
}

std::optional<float> GpuStateLog::hostRoundTripMedianUs() const {
    if (hostRoundTripsUs.empty()) return std::nullopt;
    return summarize(hostRoundTripsUs).medianMs;  // the same median as every time's (the unit aside)
}

std::string GpuStateLog::summary() const {
    std::string host;
    if (!hostRoundTripsUs.empty()) {
        const TimingStats us = summarize(hostRoundTripsUs);
        host = formatText("\nhost round trip before each timed call (launch, 4 bytes back, wait; %zu calls): "
                          "%.1f us median (%.1f-%.1f); host-driven times vary with the host, "
                          "so compare them only within one report",
                          hostRoundTripsUs.size(), us.medianMs, us.minMs, us.maxMs);
    }
    if (readings.empty()) return "GPU state: no NVML readings (no driver library, or the GPU not found through it)" + host;
    unsigned clockMin = readings.front().smClockMHz, clockMax = clockMin;
    unsigned tempMin = readings.front().temperatureC, tempMax = tempMin;
    std::string throttles;
    for (const GpuState& s : readings) {
        clockMin = std::min(clockMin, s.smClockMHz);
        clockMax = std::max(clockMax, s.smClockMHz);
        tempMin = std::min(tempMin, s.temperatureC);
        tempMax = std::max(tempMax, s.temperatureC);
        if (s.throttled() && throttles.find(s.throttleText()) == std::string::npos) {
            throttles += (throttles.empty() ? "" : "; ") + s.throttleText();
        }
    }
    return formatText("GPU during the timed calls (%zu NVML readings): SM clock %u-%u MHz, memory clock %u MHz, "
                      "%u-%u C, throttled: %s%s",
                      readings.size(), clockMin, clockMax, readings.back().memoryClockMHz, tempMin, tempMax,
                      throttles.empty() ? "never" : throttles.c_str(),
                      remeasured > 0 ? formatText(" (%d call(s) measured again)", remeasured).c_str() : "") +
           host;
}

GpuStateLog& timedCallGpuLog() {
    static GpuStateLog log;
    return log;
}

}  // namespace grading
