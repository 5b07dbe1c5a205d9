// The checked versions of the calls in GRADING_CHECKED_CALLS
// (cmake/Grading.cmake): the seal sends a student file's calls of those
// functions here (harness/seal/include/seal/seal.h), and each is judged as it
// is made, by its arguments. What the contract allows goes on to the real
// function; what it refuses fails the request, naming the call.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <string>

#include "harness/runner_main.h"

namespace {

const char* const kNonBlocking =
    "a non-blocking stream does not wait for the legacy default stream, where the runner queues each call's "
    "inputs, checks and timing; the day's contract (its course header) allows streams of the file's own with "
    "the default, blocking flags, their work done before the call returns";
const char* const kLoading =
    "the day's contract (its course header) lets the exercise neither load libraries nor look functions up "
    "at run time";

std::string quoted(const char* text) { return text == nullptr ? "NULL" : "\"" + std::string(text) + "\""; }

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

}  // extern "C"
