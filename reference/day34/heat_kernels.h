#pragma once
// Day 34: the heat-equation kernels and their launchers. Declared once; the
// course (reference/day34), the solution (reference/day34/solution) and the
// exercise (exercises/day34/heat_tiled.cu, or a student's copy of it)
// implement them, and the day 34 runner calls the launchers.
//
// The grid is n x n floats, row-major. Every kernel here reads `in` and
// writes the interior of `out` (rows and columns 1 .. n - 2) and never the
// boundary ring: the ring is Dirichlet and lives in both ping-pong buffers
// from the start (heat_pingpong.h).
//
//   u'[i][j] = u[i][j] + r * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1] - 4 u[i][j])
#include <cuda_runtime.h>

#include <cstddef>

#include "heat_constants.h"

namespace day34 {

// ---- the course's kernels (course/heat_course.cu, always the course's own)

// out[i] = in[i] for i < n: the floor no stencil over this grid can beat.
// Launch: any 1D grid covering n.
__global__ void copyGrid(const float* __restrict__ in, float* __restrict__ out, size_t n);

// One thread per interior cell, all five inputs from global memory.
// Launch: stencilGrid(n) x stencilBlock(), or any 2D grid covering the interior.
__global__ void heatStepGlobal(const float* __restrict__ in, float* __restrict__ out, int n, float r);

// ---- the exercise (exercises/day34/heat_tiled.cu)

// One block per kTileX x kTileY output tile; the block loads the
// kSharedX x kSharedY apron (tile plus a one-cell halo) into shared memory
// once and every thread reads its five inputs from there.
// The course's launch: blockDim exactly (kTileX, kTileY), grid stencilGrid(n)
// (the exercise's launcher may choose another: see below).
__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r);

// What the exercise may rely on, and what it may not leave behind:
//  - Stream: launchHeatStepTiled is called on the host thread that made the
//    CUDA context, and enqueues its work on the legacy default stream (the
//    <<<grid, block>>> launch with no stream argument). It need not
//    synchronize or check errors: the runner does both after each call.
//    Nothing of it (a launch, a copy, a host thread) may still run once the
//    default stream is idle.
//  - What it may use: the CUDA runtime API (cudaLaunchKernelEx too), CUB's
//    block and thread primitives, libcu++ (cuda::std, cuda::atomic_ref) and
//    cooperative groups. A stream of its own must be blocking (the default
//    flags), its work waited for by the legacy stream (an event) or
//    finished before the launcher returns; a non-blocking stream fails the
//    call as it is made. Host callbacks, the driver API and its entry points
//    stop the build; loading a library at run time fails the call. The file
//    defines heatStepTiled (a __global__ function) and launchHeatStepTiled
//    and nothing else with external linkage (helpers static or in an
//    anonymous namespace).
//  - Buffers: in and out are two distinct n x n grids, row-major, n floats a
//    row with no padding, each starting 256-byte aligned (a row is 16-byte
//    aligned only when n is a multiple of 4); they never overlap. Which pair
//    a call gets changes: the ping-pong swaps them every step, each case
//    brings new ones of another n, and timed calls repeat one pair with new
//    contents each time. Read in only; write only the interior of out (rows
//    and columns 1 .. n - 2), every cell of it; its ring is never written.
//    Past either grid lie guard words the runner checks.
//  - Inputs: 3 <= n <= 8192; r and every cell any finite float, not only
//    [0, 1] (timed runs scale their input by powers of two).
//  - Launch shape: the launcher is the exercise's. The course's is
//    stencilGrid(n) x stencilBlock() with the kSharedY x kSharedX apron in
//    static shared memory; another block shape or apron is the author's
//    to size, within 48 KiB of static shared memory.
//  - What stays behind: nothing. Keep no state between calls that changes
//    what a later call computes (no cached output, no latched n, r or
//    pointer); a call's result is its in, n and r alone. Timed calls are
//    calls like any other (the same context flags); each timed step reads
//    its own input and its output is checked.

// ---- launch geometry and launchers (default stream; they only enqueue, the
// runner checks errors and guard words after each call)

inline dim3 stencilBlock() { return dim3(kTileX, kTileY); }

// Tiles over the (n - 2) x (n - 2) interior; n >= 3.
inline dim3 stencilGrid(int n) {
    const unsigned interior = static_cast<unsigned>(n - 2);
    return dim3((interior + kTileX - 1) / kTileX, (interior + kTileY - 1) / kTileY);
}

inline unsigned copyBlocks(size_t cells) {
    return static_cast<unsigned>((cells + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

// One step from `in` to `out` of an n x n grid at r.
using StepLauncher = void (*)(const float* in, float* out, int n, float r);

void launchCopyGrid(const float* in, float* out, size_t cells);          // reference
void launchHeatStepGlobal(const float* in, float* out, int n, float r);  // reference
void launchHeatStepTiled(const float* in, float* out, int n, float r);   // the exercise

}  // namespace day34
