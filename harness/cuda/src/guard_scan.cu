// GuardSet's device scan: every zone of the set in one launch, the verdict in
// mapped pinned memory, one wait.
#include <algorithm>

#include "harness/guarded_buffer.h"

namespace grading {
namespace {

constexpr int kZonesPerLaunch = 64;  // 1 KiB of kernel parameters
constexpr int kScanThreads = 256;

struct ZoneBatch {
    const unsigned char* begin[kZonesPerLaunch];
    unsigned bytes[kZonesPerLaunch];
};

// One block per zone; *damaged = 1 when any byte differs from the pattern.
__global__ void scanZones(ZoneBatch batch, unsigned* damaged) {
    const unsigned char* zone = batch.begin[blockIdx.x];
    for (unsigned i = threadIdx.x; i < batch.bytes[blockIdx.x]; i += blockDim.x) {
        if (zone[i] != GuardedBytes::kGuardByte) *damaged = 1;
    }
}

}  // namespace

bool GuardSet::scanSawDamage() const {
    std::vector<GuardedBytes::Zone> zones;
    for (const GuardedBytes* b : buffers_) b->appendZones(zones);
    if (zones.empty()) return false;
    if (!damaged_) {
        unsigned* flag = nullptr;
        CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&flag), sizeof(unsigned), cudaHostAllocMapped));
        damaged_.reset(flag, [](unsigned* p) { cudaFreeHost(p); });
    }
    unsigned* deviceFlag = nullptr;
    CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void**>(&deviceFlag), damaged_.get(), 0));
    *static_cast<volatile unsigned*>(damaged_.get()) = 0;
    for (size_t first = 0; first < zones.size(); first += kZonesPerLaunch) {
        ZoneBatch batch{};
        const int count = static_cast<int>(std::min<size_t>(kZonesPerLaunch, zones.size() - first));
        for (int k = 0; k < count; ++k) {
            batch.begin[k] = zones[first + k].begin;
            batch.bytes[k] = static_cast<unsigned>(zones[first + k].bytes);
        }
        scanZones<<<count, kScanThreads, 0, cudaStreamLegacy>>>(batch, deviceFlag);
        CUDA_TRY(cudaGetLastError());
    }
    CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
    return *static_cast<volatile unsigned*>(damaged_.get()) != 0;
}

}  // namespace grading
