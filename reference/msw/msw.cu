// The host side of the two-phase search (the course's msw.cu), launching the
// three kernels declared in msw.cuh.
//
// What changed from the course, and why:
//  - n = 0 returns 0 before anything is allocated or launched. The course
//    computed sqrt(n - 1) there, which wraps around: a 32 GiB block and a
//    4-billion-entry elimination.
//  - The chunk length is computed in integers (msw_math.h), exact for every n.
//  - Every CUDA call is checked and every allocation is owned (DeviceWords),
//    so an error throws grading::CudaError and frees what was allocated.
//  - The answers the kernels leave are validated before they are used as
//    offsets: a broken kernel gives a wrong index (n), never a wild read.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "harness/cuda_check.h"
#include "msw.cuh"

namespace {

constexpr unsigned kThreads = 256;
constexpr uintmax_t kNothing = std::numeric_limits<uintmax_t>::max();

std::function<void(const msw::LaunchEvent&)>& launchHook() {
    static std::function<void(const msw::LaunchEvent&)> hook;
    return hook;
}

int smCount() {
    int device = 0;
    int sms = 0;
    CUDA_TRY(cudaGetDevice(&device));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
}

// Enough blocks for one element per thread, capped at a few waves: the
// kernels stride over the rest.
unsigned gridFor(size_t count, int blocksPerSm) {
    const size_t wanted = (count + kThreads - 1) / kThreads;
    const size_t cap = static_cast<size_t>(smCount()) * static_cast<size_t>(blocksPerSm);
    return static_cast<unsigned>(std::max<size_t>(1, std::min(wanted, cap)));
}

template <typename Launch>
void launch(const char* kernel, const char* step, size_t count, Launch&& go) {
    auto& hook = launchHook();
    if (hook) hook({kernel, step, count, false});
    go();
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) throw grading::CudaError(err, std::string("launching ") + kernel + " (" + step + ")");
    if (hook) hook({kernel, step, count, true});
}

uintmax_t readWord(const uintmax_t* d) {
    uintmax_t v = 0;
    CUDA_TRY(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

}  // namespace

namespace msw {

void set_launch_hook(std::function<void(const LaunchEvent&)> hook) { launchHook() = std::move(hook); }

DeviceWords device_words(size_t count) {
    if (count == 0) return DeviceWords();
    if (count > std::numeric_limits<size_t>::max() / sizeof(uintmax_t)) {
        throw std::length_error("device_words: " + std::to_string(count) + " words do not fit in size_t bytes");
    }
    void* p = nullptr;
    CUDA_TRY(cudaMalloc(&p, count * sizeof(uintmax_t)));
    return DeviceWords(static_cast<uintmax_t*>(p));
}

size_t two_phase_on_block(const uintmax_t* d_a, uintmax_t* d_large_block, size_t n) {
    if (n == 0) return 0;
    // Block layout: [0, n) flags (b before phase 1), [n] a kernel's answer,
    // [n + 1, n + 1 + chunk) chunk marks. That is large_block_words(n).
    const size_t chunk = sqrt_chunk_words(n);
    uintmax_t* d_flags = d_large_block;
    uintmax_t* d_section = d_large_block + n;
    uintmax_t* d_marks = d_section + 1;

    CUDA_TRY(cudaMemset(d_section, 0xFF, sizeof(uintmax_t)));
    CUDA_TRY(cudaMemset(d_marks, 0, chunk * sizeof(uintmax_t)));

    // Phase 1: which chunk holds the first mismatch.
    launch("par_sig_sqrt", "phase 1: flag mismatching words and mark their chunks", n,
           [&] { par_sig_sqrt<<<gridFor(n, 8), kThreads>>>(d_a, d_flags, d_marks, n); });
    launch("naive_leftmost_prisoner", "phase 1: keep the leftmost chunk mark", chunk,
           [&] { naive_leftmost_prisoner<<<gridFor(chunk, 4), kThreads>>>(d_marks, chunk); });
    launch("par_get_section_diff", "phase 1: read the leftmost chunk mark", chunk,
           [&] { par_get_section_diff<<<gridFor(chunk, 4), kThreads>>>(d_marks, d_section, chunk); });
    const uintmax_t section = readWord(d_section);
    if (section == kNothing) return n;  // no chunk marked: the arrays are equal
    if (section >= chunk) return n;     // not a chunk: only a broken kernel leaves this
    const size_t offset = static_cast<size_t>(section) * chunk;
    if (offset >= n) return n;          // a chunk past the end: likewise
    const size_t words = std::min(chunk, n - offset);

    // Phase 2: the first flagged word inside that chunk.
    CUDA_TRY(cudaMemset(d_section, 0xFF, sizeof(uintmax_t)));
    uintmax_t* d_chunk = d_flags + offset;
    launch("naive_leftmost_prisoner", "phase 2: keep the leftmost flag in the chunk", words,
           [&] { naive_leftmost_prisoner<<<gridFor(words, 4), kThreads>>>(d_chunk, words); });
    launch("par_get_section_diff", "phase 2: read the leftmost flag's index", words,
           [&] { par_get_section_diff<<<gridFor(words, 4), kThreads>>>(d_chunk, d_section, words); });
    const uintmax_t inChunk = readWord(d_section);
    if (inChunk >= words) return n;  // a marked chunk without a flag: a broken kernel
    return offset + static_cast<size_t>(inChunk);
}

}  // namespace msw

uintmax_t* alloc_large_block_to_device(size_t n) { return msw::device_words(large_block_words(n)).release(); }

size_t par_find_mismatch(const uintmax_t* const d_a, const uintmax_t* const b, uintmax_t* d_large_block, size_t n) {
    if (n == 0) return 0;
    CUDA_TRY(cudaMemcpy(d_large_block, b, n * sizeof(uintmax_t), cudaMemcpyDefault));
    return msw::two_phase_on_block(d_a, d_large_block, n);
}

size_t par_find_mismatch(const uintmax_t* const a, const uintmax_t* const b, size_t n) {
    if (n == 0) return 0;
    const msw::DeviceWords d_a = msw::device_words(n);
    CUDA_TRY(cudaMemcpy(d_a.get(), a, n * sizeof(uintmax_t), cudaMemcpyDefault));
    const msw::DeviceWords block(alloc_large_block_to_device(n));
    return par_find_mismatch(d_a.get(), b, block.get(), n);
}
