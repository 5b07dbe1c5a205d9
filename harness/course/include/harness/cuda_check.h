#pragma once
// CUDA errors become exceptions the runner reports (never exit() from library
// code). CUDA_TRY wraps an API call; checkLaunch follows a launch and names the
// kernel, so a fault is reported against the code that caused it.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace grading {

class CudaError : public std::runtime_error {
public:
    CudaError(cudaError_t code, const std::string& where)
        : std::runtime_error("CUDA error in " + where + ": " + cudaGetErrorName(code) + " (" +
                             cudaGetErrorString(code) + ")"),
          code_(code) {}
    cudaError_t code() const { return code_; }

private:
    cudaError_t code_;
};

inline void cudaTry(cudaError_t err, const char* call, const char* file, int line) {
    if (err != cudaSuccess) {
        throw CudaError(err, std::string(call) + " at " + file + ":" + std::to_string(line));
    }
}

// Launch errors (bad configuration) and execution errors (illegal address,
// trap) of everything queued so far, attributed to `what`.
inline void checkLaunch(const std::string& what) {
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) throw CudaError(err, what);
}

}  // namespace grading

#define CUDA_TRY(call) ::grading::cudaTry((call), #call, __FILE__, __LINE__)
