// fails: none
// passes: 34.stencil 34.ring 34.copy_policy 34.max_principle 34.unstable 34.timing 34.speed
// A correct variant that fills the apron a warp a row: the block is split
// into cg::thread_block_tile<32> warps, each loads whole apron rows (the
// first 32 cells by its lanes, the last two by lanes 0 and 1), and the rows'
// neighbours come from registers passed along with the tile's shfl_up and
// shfl_down instead of shared memory reads left and right. Cells off the
// grid read as cold.
#include <cooperative_groups.h>

#include "heat_kernels.h"

namespace cg = cooperative_groups;

namespace day34 {

__global__ void heatStepTiled(const float* __restrict__ in, float* __restrict__ out, int n, float r) {
    static_assert(kTileX == 32, "one warp a tile row");
    __shared__ float apron[kSharedY][kSharedX];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const int top = static_cast<int>(blockIdx.y) * kTileY;
    const int left = static_cast<int>(blockIdx.x) * kTileX;
    const int lane = static_cast<int>(warp.thread_rank());
    const auto cell = [&](int row, int col) {
        return row < n && col < n ? in[static_cast<size_t>(row) * static_cast<size_t>(n) + col] : kCold;
    };
    const int warps = static_cast<int>(block.size() / 32);
    for (int y = static_cast<int>(warp.meta_group_rank()); y < kSharedY; y += warps) {
        apron[y][lane] = cell(top + y, left + lane);
        if (lane < kSharedX - 32) apron[y][32 + lane] = cell(top + y, left + 32 + lane);
    }
    block.sync();
    const int y = static_cast<int>(threadIdx.y) + kHalo;
    const int x = lane + kHalo;
    const float centre = apron[y][x];
    // Left and right from the neighbouring lanes; the tile's edges from the apron.
    float west = warp.shfl_up(centre, 1);
    float east = warp.shfl_down(centre, 1);
    if (lane == 0) west = apron[y][x - 1];
    if (lane == 31) east = apron[y][x + 1];
    const int row = top + y;
    const int col = left + x;
    if (row >= n - 1 || col >= n - 1) return;
    const float around = apron[y - 1][x] + apron[y + 1][x] + west + east;
    out[static_cast<size_t>(row) * n + col] = centre + r * (around - 4.0f * centre);
}

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    heatStepTiled<<<stencilGrid(n), stencilBlock()>>>(in, out, n, r);
}

}  // namespace day34
