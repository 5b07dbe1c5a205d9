#pragma once
// Page-locked host memory. Copies to and from it go straight over the link,
// with none of the driver's staging through a bounce buffer, so they run at
// the link's speed and take the same time from one process to the next
// (a pageable 16 MiB read-back varied by 20% between processes on the H200;
// a pinned one by 0.3%).
#include <cuda_runtime.h>

#include <cstddef>

#include "harness/cuda_check.h"

namespace grading {

template <class T>
class PinnedHost {
public:
    // `n` elements, uninitialized (as cudaMallocHost leaves them): every user
    // writes before it reads, and zeroing a 128 MiB array would cost a pass.
    explicit PinnedHost(size_t n) : size_(n) {
        if (n > 0) CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&data_), n * sizeof(T)));
    }
    ~PinnedHost() {
        if (data_ != nullptr) cudaFreeHost(data_);
    }
    PinnedHost(const PinnedHost&) = delete;
    PinnedHost& operator=(const PinnedHost&) = delete;

    T* data() const { return data_; }
    size_t size() const { return size_; }
    T* begin() const { return data_; }
    T* end() const { return data_ + size_; }
    T& operator[](size_t i) const { return data_[i]; }

private:
    T* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace grading
