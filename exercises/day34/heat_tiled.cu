// Day 34 exercise: one step of the 2D heat equation with a shared-memory tile.
//
// Write heatStepTiled below. Its contract is in reference/day34/heat_kernels.h
// and heatStepGlobal in reference/day34/heat_course.cu computes the same step
// from global memory: your kernel must produce the same grid. Grade yourself
// with the command in README.md; every 34.* gate runs your kernel.
//
// Define only what is asked for here. Helpers of your own go in an anonymous
// namespace or are static: the build refuses any other name the file
// defines, and day34.builds names it.
//
// The task: one block owns a kTileX x kTileY tile of OUTPUT cells (the
// interior starts at row 1, column 1). Every output cell needs its four edge
// neighbours, so the block first copies a (kTileX + 2) x (kTileY + 2) apron,
// the tile plus a one-cell halo all round, from `in` into shared memory, and
// then each thread computes its cell from shared memory only:
//
//   out = c + r * (west + east + north + south - 4 * c)
//
// Hint 1: the apron has more cells (kSharedCells) than the block has threads.
// Number the apron's cells 0, 1, 2, ... row by row and let the block's
// threads, numbered the same way, walk them in strides of the block size.
// Consecutive threads then load consecutive floats.
// Hint 2: write the fill loop against blockDim rather than the constants, so
// it stays right while you try another tile shape. launchHeatStepTiled is
// yours too: if you change the block, size the shared apron to match (the
// constants in heat_constants.h are the course's and are not yours to edit).
//
// Pitfalls the gates will catch:
//  - Filling one apron row or column short: the cells on that side of the tile
//    read stale shared memory. 34.stencil names the first wrong cell.
//  - Reading the apron before every thread has finished filling it. That is a
//    race: it can pass on one run and fail on the next; the harness also runs
//    a version that makes the race certain.
//  - Apron cells outside the grid exist only past the far edges of the last
//    tiles; load them as cold rather than reading past the buffer (guard
//    words sit right after it and the runner reports any write there).
//  - Writing the boundary ring. It is Dirichlet: 34.ring compares every ring
//    cell with its initial value exactly, in both ping-pong buffers.
//  - Clamping or otherwise "fixing" the output. Past r = 1/4 the scheme must
//    blow up (34.unstable), and a correct kernel is bit-for-bit repeatable
//    (34.copy_policy).
#include "heat_kernels.h"

namespace day34 {

__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r) {
    // TODO: fill the kSharedY x kSharedX apron in shared memory from `in`,
    // then compute and write this thread's output cell from the apron.
}

// The course's launch: one block of kTileX x kTileY threads per output tile.
void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    heatStepTiled<<<stencilGrid(n), stencilBlock()>>>(in, out, n, r);
}

}  // namespace day34
