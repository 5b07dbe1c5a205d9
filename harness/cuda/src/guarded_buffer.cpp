#include "harness/guarded_buffer.h"

#include <algorithm>

#include "harness/runner_main.h"

namespace grading {

GuardedBytes::GuardedBytes(std::string name, size_t count, size_t elementSize)
    : name_(std::move(name)), count_(count), elementSize_(elementSize) {
    const size_t total = 2 * kGuardBytes + count * elementSize;
    void* p = nullptr;
    CUDA_TRY(cudaMalloc(&p, total));
    base_ = static_cast<unsigned char*>(p);
    CUDA_TRY(cudaMemset(base_, kGuardByte, total));
}

GuardedBytes::~GuardedBytes() { cudaFree(base_); }

void GuardedBytes::poison() {
    CUDA_TRY(cudaMemset(bytes(), kGuardByte, count_ * elementSize_));
    live_.reset();
}

void GuardedBytes::copyIn(const void* src, size_t bytes, size_t offset) {
    if (bytes > 0) CUDA_TRY(cudaMemcpy(base_ + kGuardBytes + offset, src, bytes, cudaMemcpyHostToDevice));
}

void GuardedBytes::copyOut(void* dst, size_t bytes, size_t offset) const {
    if (bytes > 0) CUDA_TRY(cudaMemcpy(dst, base_ + kGuardBytes + offset, bytes, cudaMemcpyDeviceToHost));
}

std::optional<GuardedBytes::Span> GuardedBytes::liveWindow() const {
    if (!live_) return std::nullopt;
    const size_t end = std::min(count_, *live_ + kLiveWindowElements);
    if (end == *live_) return std::nullopt;
    return Span{kGuardBytes + *live_ * elementSize_, (end - *live_) * elementSize_};
}

std::optional<size_t> GuardedBytes::firstChanged(Span span) const {
    std::vector<unsigned char> host(span.bytes);
    if (span.bytes > 0) CUDA_TRY(cudaMemcpy(host.data(), base_ + span.offset, span.bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < span.bytes; ++i) {
        if (host[i] != kGuardByte) return span.offset + i;
    }
    return std::nullopt;
}

std::optional<std::string> GuardedBytes::violation() const {
    // Only called for offsets inside the data or the trailing guard.
    const auto elementAt = [&](size_t byteOffset) { return (byteOffset - kGuardBytes) / elementSize_; };
    if (const auto before = firstChanged(leadingGuard())) {
        const long long index = -static_cast<long long>((kGuardBytes - *before + elementSize_ - 1) / elementSize_);
        return "buffer " + name_ + " was written before its start, at index " + std::to_string(index);
    }
    if (const auto after = firstChanged(trailingGuard())) {
        return "buffer " + name_ + " was written past its end, at index " +
               std::to_string(elementAt(*after)) + " (it holds " + std::to_string(count_) + ")";
    }
    if (const auto window = liveWindow()) {
        if (const auto past = firstChanged(*window)) {
            return "buffer " + name_ + " was written past its live end, at index " +
                   std::to_string(elementAt(*past)) + " (" + std::to_string(*live_) + " entries are live)";
        }
    }
    return std::nullopt;
}

void GuardedBytes::appendZones(std::vector<Zone>& zones) const {
    for (const Span s : {leadingGuard(), trailingGuard()}) zones.push_back({base_ + s.offset, s.bytes});
    if (const auto window = liveWindow()) zones.push_back({base_ + window->offset, window->bytes});
}

void expectUnchanged(const GuardedBuffer<int>& input, const std::vector<int>& want, const std::string& after) {
    const std::vector<int> now = input.download(want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        if (now[i] != want[i]) {
            throw ContractViolation(after + " wrote to its input " + input.name() + " at index " + std::to_string(i) +
                                    " (was " + std::to_string(want[i]) + ", now " + std::to_string(now[i]) + ")");
        }
    }
}

void settleDefaultStream(const std::string& where) {
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaStreamSynchronize(cudaStreamLegacy);
    if (err != cudaSuccess) throw CudaError(err, where);
}

void GuardSet::check(const std::string& after) const {
    enqueueScan();
    CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
    throwIfDamaged(after);
}

void GuardSet::throwIfDamaged(const std::string& after) const {
    if (!damaged_) throw std::logic_error("GuardSet::throwIfDamaged before any enqueueScan");
    if (*static_cast<volatile unsigned*>(damaged_.get()) == 0) return;
    for (const GuardedBytes* b : buffers_) {
        if (const auto v = b->violation()) throw GuardViolation("after " + after + ": " + *v);
    }
    throw GuardViolation("after " + after + ": a guard byte changed (seen by the device scan, gone by the read-back)");
}

}  // namespace grading
