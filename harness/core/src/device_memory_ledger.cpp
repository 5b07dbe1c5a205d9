#include "harness/device_memory_ledger.h"

#include <cstdlib>

#include "harness/text.h"

namespace grading {

uint64_t deviceMemoryBound(const char* gib) {
    const double value = gib == nullptr || *gib == '\0' ? 16.0 : std::atof(gib);
    return value > 0 ? static_cast<uint64_t>(value * kBytesPerGiB) : 0;
}

std::string DeviceMemoryLedger::refusal(uint64_t bytes) const {
    if (bound_ == 0 || (held_ <= bound_ && bytes <= bound_ - held_)) return "";
    return formatText("it would hold %.1f GiB of device memory, more than the %.0f GiB a runner may hold (%s): %s",
                      (static_cast<double>(held_) + static_cast<double>(bytes)) / kBytesPerGiB,
                      bound_ / kBytesPerGiB, kDeviceMemoryBoundVariable, kNeighboursNeedTheMemory);
}

void DeviceMemoryLedger::add(const void* p, uint64_t bytes) {
    if (p == nullptr) return;
    remove(p);  // the same address again: the driver reused it after a free the ledger did not see
    sizes_[p] = bytes;
    held_ += bytes;
}

void DeviceMemoryLedger::remove(const void* p) {
    const auto it = sizes_.find(p);
    if (it == sizes_.end()) return;
    held_ -= it->second;
    sizes_.erase(it);
}

}  // namespace grading
