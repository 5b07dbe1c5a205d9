#include "harness/timed_run_check.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "harness/cuda_check.h"

namespace grading {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;
constexpr unsigned long long kNone = ~0ull;

int blocksFor(size_t n) { return static_cast<int>(std::min<size_t>(kMaxBlocks, (n + kThreads - 1) / kThreads)); }

__device__ size_t sourceIndex(size_t j, size_t n, size_t rotation) { return (j + n - rotation) % n; }

// A 32-bit word of the variant: moved as is, or, scaled, read as a float.
// Unscaled words are copied bit for bit (an int, a NaN's payload).
__device__ unsigned variantWord(unsigned word, int exponent) {
    return exponent == 0 ? word : __float_as_uint(ldexpf(__uint_as_float(word), exponent));
}

__global__ void makeVariant(const unsigned* from, unsigned* to, size_t n, size_t rotation, int exponent) {
    for (size_t j = blockIdx.x * size_t{blockDim.x} + threadIdx.x; j < n; j += size_t{gridDim.x} * blockDim.x) {
        to[j] = variantWord(from[sourceIndex(j, n, rotation)], exponent);
    }
}

__global__ void firstDifference(const unsigned* got, const unsigned* kept, size_t n, size_t rotation, int exponent,
                                unsigned long long* first) {
    for (size_t j = blockIdx.x * size_t{blockDim.x} + threadIdx.x; j < n; j += size_t{gridDim.x} * blockDim.x) {
        if (got[j] != variantWord(kept[sourceIndex(j, n, rotation)], exponent)) {
            atomicMin(first, static_cast<unsigned long long>(j));
        }
    }
}

void enqueueWords(const unsigned* from, unsigned* to, size_t n, RunVariant v, cudaStream_t stream) {
    if (n == 0) return;
    makeVariant<<<blocksFor(n), kThreads, 0, stream>>>(from, to, n, v.rotation, v.scaleExponent);
    CUDA_TRY(cudaGetLastError());
}

}  // namespace

void enqueueVariant(const float* from, float* to, size_t n, RunVariant v, cudaStream_t stream) {
    enqueueWords(reinterpret_cast<const unsigned*>(from), reinterpret_cast<unsigned*>(to), n, v, stream);
}

void enqueueVariant(const int* from, int* to, size_t n, RunVariant v, cudaStream_t stream) {
    if (v.scaleExponent != 0) throw std::invalid_argument("an int array is moved, never scaled");
    enqueueWords(reinterpret_cast<const unsigned*>(from), reinterpret_cast<unsigned*>(to), n, v, stream);
}

TimedRunCheck::TimedRunCheck(size_t n, int runs) : n_(n), runs_(runs) {
    CUDA_TRY(cudaMalloc(&kept_, std::max<size_t>(n, 1) * sizeof(unsigned)));
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

void TimedRunCheck::afterRunWords(int run, const unsigned* out, RunVariant v, cudaStream_t stream) {
    if (n_ == 0 || run < 0 || run >= runs_) return;
    if (run == 0) {
        CUDA_TRY(cudaMemcpyAsync(kept_, out, n_ * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream));
        return;
    }
    firstDifference<<<blocksFor(n_), kThreads, 0, stream>>>(out, kept_, n_, v.rotation, v.scaleExponent, first_ + run);
    CUDA_TRY(cudaGetLastError());
}

void TimedRunCheck::afterRun(int run, const float* out, RunVariant v, cudaStream_t stream) {
    afterRunWords(run, reinterpret_cast<const unsigned*>(out), v, stream);
}

void TimedRunCheck::afterRun(int run, const unsigned* out, RunVariant v, cudaStream_t stream) {
    if (v.scaleExponent != 0) throw std::invalid_argument("unsigned words are moved, never scaled");
    afterRunWords(run, out, v, stream);
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

std::vector<unsigned> TimedRunCheck::firstWords() const {
    std::vector<unsigned> out(n_);
    if (n_ > 0) CUDA_TRY(cudaMemcpy(out.data(), kept_, n_ * sizeof(unsigned), cudaMemcpyDeviceToHost));
    return out;
}

std::vector<float> TimedRunCheck::firstOutput() const {
    const std::vector<unsigned> words = firstWords();
    std::vector<float> out(words.size());
    if (!words.empty()) std::memcpy(out.data(), words.data(), words.size() * sizeof(float));
    return out;
}

}  // namespace grading
