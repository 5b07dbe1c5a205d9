// The checked versions of the calls in GRADING_CHECKED_CALLS
// (cmake/Grading.cmake): the seal sends a student file's calls of those
// functions here (harness/seal/include/seal/seal.h), and each is judged as it
// is made, by its arguments. What the contract allows goes on to the real
// function; what it refuses fails the request, naming the call.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>

#include "harness/device_memory_ledger.h"
#include "harness/runner_main.h"
#include "harness/text.h"

namespace {

const char* const kNonBlocking =
    "a non-blocking stream does not wait for the legacy default stream, where the runner queues each call's "
    "inputs, checks and timing; the day's contract (its course header) allows streams of the file's own with "
    "the default, blocking flags, their work done before the call returns";
const char* const kLoading =
    "the day's contract (its course header) lets the exercise neither load libraries nor look functions up "
    "at run time";

std::string quoted(const char* text) { return text == nullptr ? "NULL" : "\"" + std::string(text) + "\""; }

// The bound is read before any constructor runs (.preinit_array, as the
// system-call filter is installed), so no code of the submission's has had
// a chance to change the environment first. From `envp`: getenv is not
// ready that early.
uint64_t allocationBound = 0;
void readAllocationBound(int, char**, char** envp) {
    const size_t name = std::strlen(grading::kDeviceMemoryBoundVariable);
    const char* gib = nullptr;
    for (char** e = envp; e != nullptr && *e != nullptr; ++e) {
        if (std::strncmp(*e, grading::kDeviceMemoryBoundVariable, name) == 0 && (*e)[name] == '=') gib = *e + name + 1;
    }
    allocationBound = grading::deviceMemoryBound(gib);
}
__attribute__((section(".preinit_array"), used)) void (*const grading_preinit_allocation_bound)(int, char**, char**) =
    &readAllocationBound;

std::mutex& ledgerMutex() {
    static std::mutex m;
    return m;
}
grading::DeviceMemoryLedger& ledger() {
    static grading::DeviceMemoryLedger l(allocationBound);
    return l;
}

uint64_t product(uint64_t a, uint64_t b) {
    uint64_t p = 0;
    return __builtin_mul_overflow(a, b, &p) ? std::numeric_limits<uint64_t>::max() : p;
}

// What an allocation took: its pointer, and its bytes (a pitched one's
// rows, padding and all).
struct Taken {
    const void* ptr;
    uint64_t bytes;
};

// `call` asks for `bytes`: refused past the bound, before any memory is
// taken; else made by `allocate`, and what it `taken()` kept in the ledger.
template <class Allocate, class TakenBy>
cudaError_t allocation(const char* call, uint64_t bytes, Allocate allocate, TakenBy taken) {
    const std::lock_guard<std::mutex> lock(ledgerMutex());
    const std::string refusal = ledger().refusal(bytes);
    if (!refusal.empty()) {
        grading::refuseCall(grading::formatText("%s for %.1f GiB", call, bytes / grading::kBytesPerGiB), refusal);
    }
    const cudaError_t err = allocate();
    if (err == cudaSuccess) {
        const Taken t = taken();
        ledger().add(t.ptr, t.bytes);
    }
    return err;
}

// An allocation that takes what it was asked for, at `*ptr`.
template <class Allocate>
cudaError_t allocation(const char* call, void** ptr, size_t size, Allocate allocate) {
    return allocation(call, size, allocate, [&] { return Taken{*ptr, size}; });
}

void freed(const void* p) {
    const std::lock_guard<std::mutex> lock(ledgerMutex());
    ledger().remove(p);
}

}  // namespace

extern "C" {

cudaError_t grading_checked_cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
    if ((flags & cudaStreamNonBlocking) != 0) {
        grading::refuseCall("cudaStreamCreateWithFlags with cudaStreamNonBlocking", kNonBlocking);
    }
    return cudaStreamCreateWithFlags(stream, flags);
}

cudaError_t grading_checked_cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
    if ((flags & cudaStreamNonBlocking) != 0) {
        grading::refuseCall("cudaStreamCreateWithPriority with cudaStreamNonBlocking", kNonBlocking);
    }
    return cudaStreamCreateWithPriority(stream, flags, priority);
}

void* grading_checked_dlopen(const char* file, int) { grading::refuseCall("dlopen(" + quoted(file) + ")", kLoading); }

void* grading_checked_dlmopen(Lmid_t, const char* file, int) {
    grading::refuseCall("dlmopen(" + quoted(file) + ")", kLoading);
}

void* grading_checked_dlsym(void*, const char* name) { grading::refuseCall("dlsym(" + quoted(name) + ")", kLoading); }

void* grading_checked_dlvsym(void*, const char* name, const char*) {
    grading::refuseCall("dlvsym(" + quoted(name) + ")", kLoading);
}

// Device memory, kept within what a runner may hold (device_memory_ledger.h).
cudaError_t grading_checked_cudaMalloc(void** ptr, size_t size) {
    return allocation("cudaMalloc", ptr, size, [&] { return cudaMalloc(ptr, size); });
}

cudaError_t grading_checked_cudaMallocManaged(void** ptr, size_t size, unsigned int flags) {
    return allocation("cudaMallocManaged", ptr, size, [&] { return cudaMallocManaged(ptr, size, flags); });
}

cudaError_t grading_checked_cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream) {
    return allocation("cudaMallocAsync", ptr, size, [&] { return cudaMallocAsync(ptr, size, stream); });
}

cudaError_t grading_checked_cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t pool,
                                                    cudaStream_t stream) {
    return allocation("cudaMallocFromPoolAsync", ptr, size,
                      [&] { return cudaMallocFromPoolAsync(ptr, size, pool, stream); });
}

cudaError_t grading_checked_cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
    return allocation("cudaMallocPitch", product(width, height),
                      [&] { return cudaMallocPitch(ptr, pitch, width, height); },
                      [&] { return Taken{*ptr, product(*pitch, height)}; });
}

cudaError_t grading_checked_cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent) {
    return allocation("cudaMalloc3D", product(product(extent.width, extent.height), extent.depth),
                      [&] { return cudaMalloc3D(pitched, extent); },
                      [&] { return Taken{pitched->ptr, product(product(pitched->pitch, extent.height), extent.depth)}; });
}

cudaError_t grading_checked_cudaFree(void* ptr) {
    freed(ptr);
    return cudaFree(ptr);
}

cudaError_t grading_checked_cudaFreeAsync(void* ptr, cudaStream_t stream) {
    freed(ptr);
    return cudaFreeAsync(ptr, stream);
}

}  // extern "C"
