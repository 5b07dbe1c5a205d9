#include "harness/guarded_buffer.h"

#include <algorithm>

#include "guard_pages.h"
#include "harness/runner_main.h"

namespace grading {

GuardedBytes::GuardedBytes(std::string name, size_t count, size_t elementSize, GuardPages pages)
    : name_(std::move(name)), layout_(GuardLayout::plain(count, elementSize)) {
    const size_t granule = pages == GuardPages::After ? guard_pages::granule() : 0;
    if (granule > 0) {
        layout_ = GuardLayout::beforeUnmappedPage(count, elementSize, granule);
        reservedBytes_ = layout_.mappedBytes + granule;  // the last granule is never mapped
        base_ = guard_pages::map(layout_.mappedBytes, reservedBytes_, name_);
    } else {
        void* p = nullptr;
        CUDA_TRY(cudaMalloc(&p, layout_.mappedBytes));
        base_ = static_cast<unsigned char*>(p);
    }
    CUDA_TRY(cudaMemset(base_, kGuardByte, layout_.mappedBytes));
}

GuardedBytes::~GuardedBytes() {
    if (reservedBytes_ > 0) guard_pages::unmap(base_, layout_.mappedBytes, reservedBytes_);
    else cudaFree(base_);
}

void GuardedBytes::poison() {
    CUDA_TRY(cudaMemset(bytes(), kGuardByte, layout_.dataBytes()));
    live_.reset();
}

void GuardedBytes::copyIn(const void* src, size_t bytes, size_t offset) {
    if (bytes > 0) CUDA_TRY(cudaMemcpy(base_ + layout_.dataOffset + offset, src, bytes, cudaMemcpyHostToDevice));
}

void GuardedBytes::copyOut(void* dst, size_t bytes, size_t offset) const {
    if (bytes > 0) CUDA_TRY(cudaMemcpy(dst, base_ + layout_.dataOffset + offset, bytes, cudaMemcpyDeviceToHost));
}

std::vector<unsigned char> GuardedBytes::elementBytes(size_t index) const {
    std::vector<unsigned char> element(layout_.elementSize);
    copyOut(element.data(), element.size(), index * layout_.elementSize);
    return element;
}

std::optional<GuardLayout::Span> GuardedBytes::liveWindow() const {
    return live_ ? layout_.pastLive(*live_, kLiveWindowElements) : std::nullopt;
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
    std::vector<Span> spans{layout_.leadingGuard(), layout_.trailingGuard()};
    if (const auto window = liveWindow()) spans.push_back(*window);
    for (const Span span : spans) {
        if (const auto changed = firstChanged(span)) return layout_.describeWrite(name_, *changed, live_);
    }
    return std::nullopt;
}

void GuardedBytes::appendZones(std::vector<Zone>& zones) const {
    for (const Span s : {layout_.leadingGuard(), layout_.trailingGuard()}) zones.push_back({base_ + s.offset, s.bytes});
    if (const auto window = liveWindow()) zones.push_back({base_ + window->offset, window->bytes});
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
