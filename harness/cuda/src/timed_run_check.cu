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

__global__ void firstBeyondTolerance(const float* got, const float* want, size_t n, float tolerance,
                                     unsigned long long* first) {
    for (size_t j = blockIdx.x * size_t{blockDim.x} + threadIdx.x; j < n; j += size_t{gridDim.x} * blockDim.x) {
        const float g = got[j], w = want[j];
        const bool same = tolerance == 0.0f ? __float_as_uint(g) == __float_as_uint(w)
                                            : fabsf(g - w) <= tolerance * fmaxf(1.0f, fabsf(w));  // false for NaN
        if (!same) atomicMin(first, static_cast<unsigned long long>(j));
    }
}

unsigned long long* firstPerRun(int runs) {
    unsigned long long* first = nullptr;
    CUDA_TRY(cudaMalloc(&first, std::max(runs, 1) * sizeof(unsigned long long)));
    if (const cudaError_t e = cudaMemset(first, 0xff, std::max(runs, 1) * sizeof(unsigned long long)); e != cudaSuccess) {
        cudaFree(first);
        throw CudaError(e, "clearing the timed runs' check");
    }
    return first;
}

std::vector<int64_t> firstDifferencesOf(const unsigned long long* device, int runs) {
    std::vector<unsigned long long> first(std::max(runs, 1));
    CUDA_TRY(cudaMemcpy(first.data(), device, first.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    std::vector<int64_t> out(runs, -1);
    for (int r = 0; r < runs; ++r) {
        if (first[r] != kNone) out[r] = static_cast<int64_t>(first[r]);
    }
    return out;
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
    try {
        first_ = firstPerRun(runs);
    } catch (...) {
        cudaFree(kept_);
        throw;
    }
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

std::vector<int64_t> TimedRunCheck::firstDifferences() const { return firstDifferencesOf(first_, runs_); }

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

RunAnswerCheck::RunAnswerCheck(int runs) : runs_(runs), first_(firstPerRun(runs)) {}

RunAnswerCheck::~RunAnswerCheck() { cudaFree(first_); }

void RunAnswerCheck::compare(int run, const float* got, const float* want, size_t n, float tolerance,
                             cudaStream_t stream) {
    if (n == 0 || run < 0 || run >= runs_) return;
    firstBeyondTolerance<<<blocksFor(n), kThreads, 0, stream>>>(got, want, n, tolerance, first_ + run);
    CUDA_TRY(cudaGetLastError());
}

void RunAnswerCheck::compare(int run, const unsigned* got, const unsigned* want, size_t n, cudaStream_t stream) {
    if (n == 0 || run < 0 || run >= runs_) return;
    firstDifference<<<blocksFor(n), kThreads, 0, stream>>>(got, want, n, 0, 0, first_ + run);
    CUDA_TRY(cudaGetLastError());
}

std::vector<int64_t> RunAnswerCheck::firstDifferences() const { return firstDifferencesOf(first_, runs_); }

}  // namespace grading
