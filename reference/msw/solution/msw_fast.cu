// One-pass first mismatch with early exit (see msw_fast.cuh).
//
// A persistent grid walks tiles of kTileWords words; block k takes tiles k,
// k + G, k + 2G, ... in increasing order. The lowest mismatch found so far
// is a device global, lowered with atomicMin. A block stops as soon as its
// next tile starts at or after that value: every later tile of the block
// lies further right still. A block that finds a mismatch publishes it and
// stops for the same reason. The last block to finish moves the answer out
// and resets the global, so no memset is needed before the next launch.
#include <algorithm>
#include <cstdint>
#include <string>

#include "harness/cuda_check.h"
#include "msw_fast.cuh"

namespace {

constexpr int kThreads = 256;
constexpr int kPairsPerThread = 4;  // 16-byte loads per array per thread per tile
constexpr size_t kTileWords = size_t(2) * kThreads * kPairsPerThread;  // 2048 words, 16 KiB per array
constexpr unsigned long long kNone = ~0ull;

__device__ unsigned long long fastFirst = kNone;  // lowest mismatch so far, kNone between launches
__device__ unsigned long long fastAnswer = kNone;  // the last launch's result
__device__ unsigned int fastBlocksDone = 0;

__device__ __forceinline__ unsigned long long warpMin(unsigned long long v) {
    for (int offset = 16; offset > 0; offset >>= 1) v = min(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

template <bool kVector>
__global__ void __launch_bounds__(kThreads) firstMismatchKernel(const uintmax_t* __restrict__ a,
                                                                const uintmax_t* __restrict__ b, size_t n) {
    __shared__ unsigned long long known[2];  // double-buffered so a slow warp never reads the next value
    __shared__ unsigned long long blockMin;
    if (threadIdx.x == 0) blockMin = kNone;

    const size_t tiles = (n + kTileWords - 1) / kTileWords;
    unsigned long long limit = n;  // block-uniform: nothing at or past it can be the answer
    int parity = 0;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t base = tile * kTileWords;
        if (base >= limit) break;
        if (threadIdx.x == 0) known[parity] = *static_cast<volatile unsigned long long*>(&fastFirst);

        unsigned long long mine = kNone;
        if constexpr (kVector) {
            const ulonglong2* a2 = reinterpret_cast<const ulonglong2*>(a);
            const ulonglong2* b2 = reinterpret_cast<const ulonglong2*>(b);
            ulonglong2 va[kPairsPerThread];
            ulonglong2 vb[kPairsPerThread];
#pragma unroll
            for (int u = 0; u < kPairsPerThread; ++u) {  // all loads first: many bytes in flight
                const size_t w = base + 2 * (static_cast<size_t>(u) * kThreads + threadIdx.x);
                if (w + 1 < n) {
                    va[u] = __ldcs(a2 + w / 2);
                    vb[u] = __ldcs(b2 + w / 2);
                } else if (w < n) {  // the odd last word
                    va[u] = make_ulonglong2(a[w], 0);
                    vb[u] = make_ulonglong2(b[w], 0);
                } else {
                    va[u] = vb[u] = make_ulonglong2(0, 0);
                }
            }
#pragma unroll
            for (int u = kPairsPerThread - 1; u >= 0; --u) {  // right to left: the lowest index wins
                const size_t w = base + 2 * (static_cast<size_t>(u) * kThreads + threadIdx.x);
                if (va[u].y != vb[u].y) mine = w + 1;
                if (va[u].x != vb[u].x) mine = w;
            }
        } else {
            constexpr int kWordsPerThread = 2 * kPairsPerThread;
            uintmax_t va[kWordsPerThread];
            uintmax_t vb[kWordsPerThread];
#pragma unroll
            for (int u = 0; u < kWordsPerThread; ++u) {
                const size_t w = base + static_cast<size_t>(u) * kThreads + threadIdx.x;
                va[u] = w < n ? a[w] : 0;
                vb[u] = w < n ? b[w] : 0;
            }
#pragma unroll
            for (int u = kWordsPerThread - 1; u >= 0; --u) {
                if (va[u] != vb[u]) mine = base + static_cast<size_t>(u) * kThreads + threadIdx.x;
            }
        }

        if (__syncthreads_or(mine != kNone)) {  // block-uniform
            mine = warpMin(mine);
            if ((threadIdx.x & 31) == 0 && mine != kNone) atomicMin(&blockMin, mine);
            __syncthreads();
            if (threadIdx.x == 0) atomicMin(&fastFirst, blockMin);
            break;  // this block's later tiles all lie to the right
        }
        limit = min(limit, known[parity]);
        parity ^= 1;
    }

    // The last block out publishes the answer and resets for the next launch.
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&fastBlocksDone, 1u) == gridDim.x - 1) {
            __threadfence();
            fastAnswer = atomicExch(&fastFirst, kNone);
            fastBlocksDone = 0;
        }
    }
}

struct GridCache {
    int device = -1;
    int blocksPerSm = 0;
    unsigned blocks = 0;
};

unsigned persistentGrid(const msw::FastOptions& options) {
    thread_local GridCache cache;
    int device = 0;
    CUDA_TRY(cudaGetDevice(&device));
    if (cache.device != device || cache.blocksPerSm != options.blocksPerSm) {
        int sms = 0;
        int fitV = 0;
        int fitS = 0;
        CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fitV, firstMismatchKernel<true>, kThreads, 0));
        CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fitS, firstMismatchKernel<false>, kThreads, 0));
        // Every block resident at once, or early exit would wait for a wave.
        const int perSm = std::max(1, std::min({options.blocksPerSm, fitV, fitS}));
        cache = {device, options.blocksPerSm, static_cast<unsigned>(sms * perSm)};
    }
    return cache.blocks;
}

}  // namespace

size_t fast_find_mismatch(const uintmax_t* d_a, const uintmax_t* d_b, size_t n) {
    return fast_find_mismatch(d_a, d_b, n, msw::FastOptions{});
}

size_t fast_find_mismatch(const uintmax_t* d_a, const uintmax_t* d_b, size_t n, const msw::FastOptions& options) {
    if (n == 0) return 0;
    const size_t tiles = (n + kTileWords - 1) / kTileWords;
    const unsigned grid = static_cast<unsigned>(std::min<size_t>(persistentGrid(options), tiles));
    const bool aligned = ((reinterpret_cast<uintptr_t>(d_a) | reinterpret_cast<uintptr_t>(d_b)) & 15) == 0;
    if (aligned) {
        firstMismatchKernel<true><<<grid, kThreads>>>(d_a, d_b, n);
    } else {
        firstMismatchKernel<false><<<grid, kThreads>>>(d_a, d_b, n);
    }
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) throw grading::CudaError(err, "launching firstMismatchKernel (fast_find_mismatch)");
    unsigned long long answer = kNone;
    CUDA_TRY(cudaMemcpyFromSymbol(&answer, fastAnswer, sizeof answer));
    return static_cast<size_t>(std::min<unsigned long long>(answer, n));
}
