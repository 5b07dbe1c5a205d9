#include "harness/timed_run_check.h"

#include <algorithm>
#include <string>

#include "harness/cuda_check.h"

namespace grading {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;
constexpr unsigned long long kNone = ~0ull;

int blocksFor(size_t n) { return static_cast<int>(std::min<size_t>(kMaxBlocks, (n + kThreads - 1) / kThreads)); }

__device__ size_t sourceIndex(size_t j, size_t n, size_t rotation) { return (j + n - rotation) % n; }

__global__ void makeVariant(const float* from, float* to, size_t n, size_t rotation, int exponent) {
    for (size_t j = blockIdx.x * size_t{blockDim.x} + threadIdx.x; j < n; j += size_t{gridDim.x} * blockDim.x) {
        to[j] = ldexpf(from[sourceIndex(j, n, rotation)], exponent);
    }
}

__global__ void firstDifference(const float* got, const float* kept, size_t n, size_t rotation, int exponent,
                                unsigned long long* first) {
    for (size_t j = blockIdx.x * size_t{blockDim.x} + threadIdx.x; j < n; j += size_t{gridDim.x} * blockDim.x) {
        const float want = ldexpf(kept[sourceIndex(j, n, rotation)], exponent);
        if (__float_as_uint(got[j]) != __float_as_uint(want)) atomicMin(first, static_cast<unsigned long long>(j));
    }
}

}  // namespace

void enqueueVariant(const float* from, float* to, size_t n, RunVariant v, cudaStream_t stream) {
    if (n == 0) return;
    makeVariant<<<blocksFor(n), kThreads, 0, stream>>>(from, to, n, v.rotation, v.scaleExponent);
    CUDA_TRY(cudaGetLastError());
}

TimedRunCheck::TimedRunCheck(size_t n, int runs) : n_(n), runs_(runs) {
    CUDA_TRY(cudaMalloc(&kept_, std::max<size_t>(n, 1) * sizeof(float)));
    if (const cudaError_t e = cudaMalloc(&first_, std::max(runs, 1) * sizeof(unsigned long long)); e != cudaSuccess) {
        cudaFree(kept_);
        throw CudaError(e, "allocating the timed runs' check");
    }
    CUDA_TRY(cudaMemset(first_, 0xff, std::max(runs, 1) * sizeof(unsigned long long)));
}

TimedRunCheck::~TimedRunCheck() {
    cudaFree(kept_);
    cudaFree(first_);
}

void TimedRunCheck::afterRun(int run, const float* out, RunVariant v, cudaStream_t stream) {
    if (n_ == 0 || run < 0 || run >= runs_) return;
    if (run == 0) {
        CUDA_TRY(cudaMemcpyAsync(kept_, out, n_ * sizeof(float), cudaMemcpyDeviceToDevice, stream));
        return;
    }
    firstDifference<<<blocksFor(n_), kThreads, 0, stream>>>(out, kept_, n_, v.rotation, v.scaleExponent,
                                                           first_ + run);
    CUDA_TRY(cudaGetLastError());
}

std::vector<int64_t> TimedRunCheck::firstDifferences() const {
    std::vector<unsigned long long> first(std::max(runs_, 1));
    CUDA_TRY(cudaMemcpy(first.data(), first_, first.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    std::vector<int64_t> out(runs_, -1);
    for (int r = 0; r < runs_; ++r) {
        if (first[r] != kNone) out[r] = static_cast<int64_t>(first[r]);
    }
    return out;
}

std::vector<float> TimedRunCheck::firstOutput() const {
    std::vector<float> out(n_);
    if (n_ > 0) CUDA_TRY(cudaMemcpy(out.data(), kept_, n_ * sizeof(float), cudaMemcpyDeviceToHost));
    return out;
}

}  // namespace grading
