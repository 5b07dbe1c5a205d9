#pragma once
// Work a call left running on a stream that does not wait for the legacy
// default stream, where the runner queues each call's inputs, checks and
// timing. The seal refuses such a stream where a student file makes one
// (checked_calls.cpp); this check catches any it did not see. One device
// value the call produces (a count) is read twice: queued on the legacy
// default stream behind the call, then after a device-wide wait. A value
// that changed in between was written by work still running once the
// default stream was done.
#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "harness/cuda_check.h"
#include "harness/pinned_host.h"
#include "harness/runner_main.h"

namespace grading {

template <typename T>
class WorkLeftCheck {
    static_assert(std::is_arithmetic_v<T>, "a count or a flag, which the message prints");

public:
    // `what` names the value in the message, e.g. "the level's count".
    explicit WorkLeftCheck(std::string what) : what_(std::move(what)) {}

    // The first read, queued behind everything on the legacy default stream,
    // no wait. An error the call left, or one the copy meets, is `where`'s.
    void enqueueRead(const T* value, const std::string& where) {
        cudaError_t err = cudaGetLastError();
        if (err == cudaSuccess) {
            err = cudaMemcpyAsync(seen_.data(), value, sizeof(T), cudaMemcpyDeviceToHost, cudaStreamLegacy);
        }
        if (err != cudaSuccess) throw CudaError(err, where);
    }

    // After a device-wide wait (checkLaunch): the value now. Throws a
    // ContractViolation naming `where` when the first read saw another.
    T settled(const T* value, const std::string& where) const {
        T now{};
        CUDA_TRY(cudaMemcpy(&now, value, sizeof(T), cudaMemcpyDeviceToHost));
        const T seen = seen_[0];
        if (seen != now) {
            throw ContractViolation(where + " left work running on another stream: " + what_ + " read " +
                                    std::to_string(seen) + " once the default stream was done and " +
                                    std::to_string(now) +
                                    " once the whole device was; launch on the default stream or synchronize "
                                    "before returning");
        }
        return now;
    }

private:
    std::string what_;
    PinnedHost<T> seen_{1};
};

}  // namespace grading
