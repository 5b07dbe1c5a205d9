// Planted bugs (day 34) in the tiled stencil, one per build:
//  PLANT_APRON_ROW_SHORT   the fill loop stops one apron row early, so the
//                          bottom halo row is never loaded and the tile's last
//                          output row reads stale shared memory: 34.stencil.
//  PLANT_NO_SYNC           no barrier between filling the apron and reading
//                          it. A real race: threads read cells another warp
//                          has not stored yet. It fails 34.stencil on almost
//                          every run, but a race can pass by luck.
//  PLANT_NO_SYNC_EXPOSED   the same missing barrier with the race made certain:
//                          every thread first stores NaN into the cells it is
//                          about to fill, and every warp but the first spins
//                          ~200k cycles before its loads. The first warp then
//                          reads its neighbours before they exist and sees NaN
//                          (or stale values), whatever the scheduler does.
//  PLANT_CLAMP             a correct stencil whose output is clamped to [0, 1].
//                          Harmless at r <= 1/4, where the exact values stay in
//                          [0, 1]; it hides the growth past the bound:
//                          34.unstable fails, 34.max_principle passes.
#include <cmath>

#include "heat_kernels.h"

#if !defined(PLANT_APRON_ROW_SHORT) && !defined(PLANT_NO_SYNC) && !defined(PLANT_NO_SYNC_EXPOSED) && \
    !defined(PLANT_CLAMP)
#error "define the bug to plant"
#endif

namespace day34 {

__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r) {
    __shared__ float apron[kSharedY][kSharedX];
    const int originCol = static_cast<int>(blockIdx.x) * kTileX + 1;
    const int originRow = static_cast<int>(blockIdx.y) * kTileY + 1;
    const int threads = static_cast<int>(blockDim.x * blockDim.y);
    const int self = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);

#if defined(PLANT_APRON_ROW_SHORT)
    const int fillEnd = kSharedCells - kSharedX;  // one apron row short
#else
    const int fillEnd = kSharedCells;
#endif

#if defined(PLANT_NO_SYNC_EXPOSED)
    for (int s = self; s < fillEnd; s += threads) apron[s / kSharedX][s % kSharedX] = nanf("");
    __threadfence_block();  // keeps the poison from being optimised away as a dead store
    if (self >= 32) {
        const long long start = clock64();
        while (clock64() - start < 200000) {
        }
    }
#endif

    for (int s = self; s < fillEnd; s += threads) {
        const int ay = s / kSharedX;
        const int ax = s % kSharedX;
        const int gy = originRow - kHalo + ay;
        const int gx = originCol - kHalo + ax;
        const bool onGrid = gx >= 0 && gx < n && gy >= 0 && gy < n;
        apron[ay][ax] = onGrid ? in[static_cast<size_t>(gy) * static_cast<size_t>(n) + gx] : kCold;
    }
#if !defined(PLANT_NO_SYNC) && !defined(PLANT_NO_SYNC_EXPOSED)
    __syncthreads();
#endif

    const int col = originCol + static_cast<int>(threadIdx.x);
    const int row = originRow + static_cast<int>(threadIdx.y);
    if (col >= n - 1 || row >= n - 1) return;
    const int ax = static_cast<int>(threadIdx.x) + kHalo;
    const int ay = static_cast<int>(threadIdx.y) + kHalo;
    const float centre = apron[ay][ax];
    const float around = apron[ay][ax - 1] + apron[ay][ax + 1] + apron[ay - 1][ax] + apron[ay + 1][ax];
    float next = centre + r * (around - 4.0f * centre);
#if defined(PLANT_CLAMP)
    next = fminf(fmaxf(next, 0.0f), 1.0f);
#endif
    out[static_cast<size_t>(row) * static_cast<size_t>(n) + col] = next;
}

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    heatStepTiled<<<stencilGrid(n), stencilBlock()>>>(in, out, n, r);
}

}  // namespace day34
