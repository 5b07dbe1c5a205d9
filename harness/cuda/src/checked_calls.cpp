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
    constexpr char kSetting[] = "GRADING_RUNNER_GPU_MEMORY_GIB=";
    const char* gib = nullptr;
    for (char** e = envp; e != nullptr && *e != nullptr; ++e) {
        if (std::strncmp(*e, kSetting, sizeof kSetting - 1) == 0) gib = *e + sizeof kSetting - 1;
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

// `call` asks for `bytes`: refused past the bound, before any memory is
// taken; else made by `allocate`, and what it took (`heldAfter()`, a
// pitched allocation's rows) kept in the ledger under `*ptr`.
template <class Allocate, class HeldAfter>
cudaError_t allocation(const char* call, uint64_t bytes, void** ptr, Allocate allocate, HeldAfter heldAfter) {
    const std::lock_guard<std::mutex> lock(ledgerMutex());
    const std::string refusal = ledger().refusal(bytes);
    if (!refusal.empty()) {
        grading::refuseCall(grading::formatText("%s for %.1f GiB", call, bytes / (1024.0 * 1024.0 * 1024.0)),
                            refusal);
    }
    const cudaError_t err = allocate();
    if (err == cudaSuccess && ptr != nullptr) ledger().add(*ptr, heldAfter());
    return err;
}
template <class Allocate>
cudaError_t allocation(const char* call, uint64_t bytes, void** ptr, Allocate allocate) {
    return allocation(call, bytes, ptr, allocate, [bytes] { return bytes; });
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
    return allocation("cudaMalloc", size, ptr, [&] { return cudaMalloc(ptr, size); });
}

cudaError_t grading_checked_cudaMallocManaged(void** ptr, size_t size, unsigned int flags) {
    return allocation("cudaMallocManaged", size, ptr, [&] { return cudaMallocManaged(ptr, size, flags); });
}

cudaError_t grading_checked_cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream) {
    return allocation("cudaMallocAsync", size, ptr, [&] { return cudaMallocAsync(ptr, size, stream); });
}

cudaError_t grading_checked_cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t pool,
                                                    cudaStream_t stream) {
    return allocation("cudaMallocFromPoolAsync", size, ptr,
                      [&] { return cudaMallocFromPoolAsync(ptr, size, pool, stream); });
}

cudaError_t grading_checked_cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
    return allocation(
        "cudaMallocPitch", product(width, height), ptr, [&] { return cudaMallocPitch(ptr, pitch, width, height); },
        [&] { return product(*pitch, height); });
}

cudaError_t grading_checked_cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent) {
    void* ptr = nullptr;
    const cudaError_t err = allocation(
        "cudaMalloc3D", product(product(extent.width, extent.height), extent.depth), &ptr,
        [&] {
            const cudaError_t e = cudaMalloc3D(pitched, extent);
            if (e == cudaSuccess) ptr = pitched->ptr;
            return e;
        },
        [&] { return product(product(pitched->pitch, extent.height), extent.depth); });
    return err;
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
