// The checks after a launch that run on the device, each in one launch and
// one wait with its verdict in mapped pinned memory: GuardSet's scan of every
// guard zone, and InputWatch's compare of every kept input with its copy.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "harness/guarded_buffer.h"
#include "harness/runner_main.h"

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

void GuardSet::enqueueScan() const {
    if (!damaged_) {
        unsigned* flag = nullptr;
        CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&flag), sizeof(unsigned), cudaHostAllocMapped));
        damaged_.reset(flag, [](unsigned* p) { cudaFreeHost(p); });
    }
    *static_cast<volatile unsigned*>(damaged_.get()) = 0;
    enqueueAnotherScan();
}

void GuardSet::enqueueAnotherScan() const {
    if (!damaged_) throw std::logic_error("GuardSet::enqueueAnotherScan before enqueueScan");
    unsigned* deviceFlag = nullptr;
    CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void**>(&deviceFlag), damaged_.get(), 0));
    std::vector<GuardedBytes::Zone> zones;
    for (const GuardedBytes* b : buffers_) b->appendZones(zones);
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
}

}  // namespace grading

namespace grading {
namespace {

constexpr size_t kMaxKept = 8;
constexpr unsigned long long kNoChange = ~0ull;

// *first = the lowest element (of `wordsPerElement` 32-bit words) where now
// and was differ, bit for bit (left alone when none).
__global__ void firstDifference(const unsigned* now, const unsigned* was, size_t words, unsigned wordsPerElement,
                                unsigned long long* first) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < words; i += stride) {
        if (now[i] != was[i]) atomicMin(first, static_cast<unsigned long long>(i / wordsPerElement));
    }
}

std::string indexPlace(size_t index) { return "index " + std::to_string(index); }

}  // namespace

InputWatch::InputWatch() {
    CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&firstChanged_), kMaxKept * sizeof(unsigned long long),
                           cudaHostAllocMapped));
}

InputWatch::~InputWatch() {
    if (firstChanged_ != nullptr) cudaFreeHost(firstChanged_);
}

InputWatch::Kept& InputWatch::copyAside(const GuardedBytes& input, size_t n, Names names) {
    if (input.elementSize() % sizeof(unsigned) != 0) {
        throw std::logic_error("InputWatch compares 32-bit words: " + input.name() + " has elements of " +
                               std::to_string(input.elementSize()) + " bytes");
    }
    auto it = std::find_if(kept_.begin(), kept_.end(), [&](const Kept& k) { return k.input == &input; });
    if (it == kept_.end()) it = std::find_if(kept_.begin(), kept_.end(), [](const Kept& k) { return !k.input; });
    if (it == kept_.end()) {
        if (kept_.size() == kMaxKept) throw std::logic_error("InputWatch: more than 8 inputs");
        kept_.push_back({nullptr, 0, nullptr, {}});
        it = kept_.end() - 1;
    }
    it->input = &input;
    // Sized to the input's whole buffer, so an input growing call by call
    // never makes it allocate (and free, which waits for the device) again.
    if (!it->copy || it->copy->elementSize() != input.elementSize() || it->copy->count() < n) {
        it->copy = std::make_unique<GuardedBytes>(input.name() + " as kept", std::max(n, input.count()),
                                                  input.elementSize());
    }
    it->n = n;
    it->names = std::move(names);
    if (n > 0) {
        CUDA_TRY(cudaMemcpyAsync(it->copy->bytes(), input.bytes(), n * input.elementSize(), cudaMemcpyDeviceToDevice,
                                 cudaStreamLegacy));
    }
    return *it;
}

void InputWatch::keepBytes(const GuardedBytes& input, size_t n, Names names) {
    copyAside(input, n, std::move(names));
    CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
}

void InputWatch::release(const GuardedBytes& input) {
    for (Kept& k : kept_) {
        if (k.input == &input) k.input = nullptr;  // its copy's memory stays, for the next keep()
    }
}

void InputWatch::clearQueued() {
    for (size_t k = 0; k < kMaxKept; ++k) static_cast<volatile unsigned long long*>(firstChanged_)[k] = kNoChange;
}

// Each kept input against its copy; the lowest changed element per input
// lands in firstChanged_ (mapped), which only ever goes down.
void InputWatch::enqueueCheck() const {
    unsigned long long* deviceFirst = nullptr;
    CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void**>(&deviceFirst), firstChanged_, 0));
    for (size_t k = 0; k < kept_.size(); ++k) {
        const Kept& w = kept_[k];
        if (w.input == nullptr || w.n == 0) continue;
        const unsigned wordsPerElement = static_cast<unsigned>(w.input->elementSize() / sizeof(unsigned));
        const size_t words = w.n * wordsPerElement;
        const unsigned blocks = static_cast<unsigned>(std::min<size_t>((words + kScanThreads - 1) / kScanThreads, 1024));
        firstDifference<<<blocks, kScanThreads, 0, cudaStreamLegacy>>>(
            static_cast<const unsigned*>(w.input->bytes()), static_cast<const unsigned*>(w.copy->bytes()), words,
            wordsPerElement, deviceFirst + k);
        CUDA_TRY(cudaGetLastError());
    }
}

void InputWatch::check(const std::string& after) {
    clearQueued();
    enqueueCheck();
    CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
    throwIfChangedQueued(after);
}

void InputWatch::throwIfChangedQueued(const std::string& after) const {
    for (size_t k = 0; k < kept_.size(); ++k) {
        const unsigned long long first = static_cast<volatile unsigned long long*>(firstChanged_)[k];
        if (first == kNoChange) continue;
        const Kept& w = kept_[k];
        if (w.input != nullptr && first < w.n) {
            const size_t index = static_cast<size_t>(first);
            const std::vector<unsigned char> now = w.input->elementBytes(index);
            const std::vector<unsigned char> was = w.copy->elementBytes(index);
            if (now != was) {
                throw ContractViolation(after + " wrote to its input " + w.input->name() + " at " +
                                        (w.names.place ? w.names.place(index) : indexPlace(index)) + " (was " +
                                        w.names.value(was.data()) + ", now " + w.names.value(now.data()) + ")");
            }
        }
        // Seen by the device but not read back: the write was undone, or (queued)
        // the slot was released or kept again since, for another input.
        throw ContractViolation(after + " wrote to an input it was given (seen by the device compare, gone by the "
                                        "read-back: which input is not known here)");
    }
}

}  // namespace grading
