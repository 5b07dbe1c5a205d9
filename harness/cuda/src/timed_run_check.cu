#include "harness/timed_run_check.h"

#include <algorithm>

#include "harness/cuda_check.h"

namespace grading {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;
constexpr unsigned long long kNone = ~0ull;

int blocksFor(size_t n) { return static_cast<int>(std::min<size_t>(kMaxBlocks, (n + kThreads - 1) / kThreads)); }

__global__ void firstDifferentWord(const unsigned* got, const unsigned* want, size_t n, unsigned long long* first) {
    for (size_t j = blockIdx.x * size_t{blockDim.x} + threadIdx.x; j < n; j += size_t{gridDim.x} * blockDim.x) {
        if (got[j] != want[j]) atomicMin(first, static_cast<unsigned long long>(j));
    }
}

__global__ void firstBeyondTolerance(const float* got, const float* want, size_t n, float tolerance,
                                     unsigned long long* first) {
    for (size_t j = blockIdx.x * size_t{blockDim.x} + threadIdx.x; j < n; j += size_t{gridDim.x} * blockDim.x) {
        const float g = got[j], w = want[j];
        const bool same = tolerance == 0.0f ? __float_as_uint(g) == __float_as_uint(w)
                                            : fabsf(g - w) <= tolerance * fmaxf(1.0f, fabsf(w));  // false for NaN
        if (!same) atomicMin(first, static_cast<unsigned long long>(j));
    }
}

}  // namespace

RunAnswerCheck::RunAnswerCheck(int runs) : runs_(runs) {
    CUDA_TRY(cudaMalloc(&first_, std::max(runs, 1) * sizeof(unsigned long long)));
    if (const cudaError_t e = cudaMemset(first_, 0xff, std::max(runs, 1) * sizeof(unsigned long long)); e != cudaSuccess) {
        cudaFree(first_);
        throw CudaError(e, "clearing the timed runs' check");
    }
}

RunAnswerCheck::~RunAnswerCheck() { cudaFree(first_); }

void RunAnswerCheck::compare(int run, const float* got, const float* want, size_t n, float tolerance,
                             cudaStream_t stream) {
    if (n == 0 || run < 0 || run >= runs_) return;
    firstBeyondTolerance<<<blocksFor(n), kThreads, 0, stream>>>(got, want, n, tolerance, first_ + run);
    CUDA_TRY(cudaGetLastError());
}

void RunAnswerCheck::compare(int run, const unsigned* got, const unsigned* want, size_t n, cudaStream_t stream) {
    if (n == 0 || run < 0 || run >= runs_) return;
    firstDifferentWord<<<blocksFor(n), kThreads, 0, stream>>>(got, want, n, first_ + run);
    CUDA_TRY(cudaGetLastError());
}

std::vector<int64_t> RunAnswerCheck::firstDifferences() const {
    std::vector<unsigned long long> first(std::max(runs_, 1));
    CUDA_TRY(cudaMemcpy(first.data(), first_, first.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    std::vector<int64_t> out(runs_, -1);
    for (int r = 0; r < runs_; ++r) {
        if (first[r] != kNone) out[r] = static_cast<int64_t>(first[r]);
    }
    return out;
}

}  // namespace grading
