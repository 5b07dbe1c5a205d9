// fails: none
// passes: msw.index msw.empty@two_phase
// A correct variant with cooperative groups and libcu++ atomics: a warp's
// first survivor by cg::reduce with cg::less over a thread_block_tile<32>,
// the block's and the grid's by cuda::atomic_ref::fetch_min at block and
// device scope, the last block told by an acquire-release fetch_add, and
// phase 1's marks and phase 2's answer stored through cuda::atomic_ref.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>

#include "msw.cuh"
#include "msw_math.h"

namespace cg = cooperative_groups;

namespace {

constexpr unsigned long long kNone = ~0ull;

__device__ uintmax_t firstOfGrid = kNone;
__device__ unsigned int blocksDone = 0;

using DeviceWord = cuda::atomic_ref<uintmax_t, cuda::thread_scope_device>;

__device__ size_t firstThread() { return static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ size_t gridThreads() { return static_cast<size_t>(gridDim.x) * blockDim.x; }

// The block's minimum of v, on every thread (blocks of whole warps: msw.cu's 256).
__device__ unsigned long long blockMin(unsigned long long v) {
    __shared__ unsigned long long least;
    const cg::thread_block block = cg::this_thread_block();
    if (block.thread_rank() == 0) least = kNone;
    block.sync();
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const unsigned long long warpLeast = cg::reduce(warp, v, cg::less<unsigned long long>());
    if (warp.thread_rank() == 0) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_block>(least).fetch_min(warpLeast,
                                                                                       cuda::std::memory_order_relaxed);
    }
    block.sync();
    return least;
}

}  // namespace

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    const size_t chunk = msw::chunk_size(n);
    for (size_t i = firstThread(); i < n; i += gridThreads()) {
        const bool differs = p1[i] != p2[i];
        p2[i] = differs ? 1 : 0;
        if (differs) DeviceWord(sig_out[i / chunk]).store(1, cuda::std::memory_order_relaxed);
    }
}

__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    __shared__ bool lastBlock;
    __shared__ unsigned long long keep;
    unsigned long long mine = kNone;
    for (size_t i = firstThread(); i < n; i += gridThreads()) {
        if (p[i] == 0) continue;
        if (mine == kNone) mine = i;
        else p[i] = 0;
    }
    const unsigned long long blockFirst = blockMin(mine);
    if (mine != kNone && mine != blockFirst) p[mine] = 0;
    __threadfence();  // this thread's clears reach the device before the block reports
    cg::this_thread_block().sync();
    if (threadIdx.x == 0) {
        if (blockFirst != kNone) DeviceWord(firstOfGrid).fetch_min(blockFirst, cuda::std::memory_order_relaxed);
        // Releases this block's minimum; the last block acquires every block's.
        cuda::atomic_ref<unsigned int, cuda::thread_scope_device> done(blocksDone);
        lastBlock = done.fetch_add(1u, cuda::std::memory_order_acq_rel) == gridDim.x - 1;
        if (lastBlock) keep = DeviceWord(firstOfGrid).load(cuda::std::memory_order_acquire);
    }
    cg::this_thread_block().sync();
    if (!lastBlock) return;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
        if (i != keep && p[i] != 0) p[i] = 0;
    }
    cg::this_thread_block().sync();
    if (threadIdx.x == 0) {  // as the launch found it
        DeviceWord(firstOfGrid).store(kNone, cuda::std::memory_order_relaxed);
        cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(blocksDone).store(0u, cuda::std::memory_order_relaxed);
    }
}

__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    for (size_t i = firstThread(); i < n; i += gridThreads()) {
        if (tree[i] != 0) DeviceWord(*section).fetch_min(i, cuda::std::memory_order_relaxed);
    }
}
