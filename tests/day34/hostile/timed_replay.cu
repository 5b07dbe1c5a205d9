// fails: 34.timing
// cases: tiled_seeded_2048
// expect: heatStepTiled's timed run 2: the cell at row [0-9]+, col [0-9]+ is not the course's answer to the run's own grid: the run did not do its own step
// Hostile submission: steps for real on the first five launches of a grid
// size (34.timing's warm-ups and first two timed runs), keeping a copy, and
// from then on only copies that copy back: a fraction of the work, and
// times to match. Each timed run has buffers of its own and reads a grid of
// its own, made from a key, so run 2's copy is run 1's answer to another
// grid, and the runner's check of every timed run names it.
#include "harness/cuda_check.h"

// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "heat_kernels.h"
namespace day34 {
static void referenceLaunchHeatStepTiled(const float* in, float* out, int n, float r);
}  // namespace day34
#define launchHeatStepTiled referenceLaunchHeatStepTiled
#include "../../../reference/day34/solution/heat_tiled.cu"  // instructor-only fixture: it may use the solution
#undef launchHeatStepTiled

namespace day34 {

void launchHeatStepTiled(const float* in, float* out, int n, float r) {
    static size_t lastCells = 0;
    static int callsHere = 0;
    static float* kept = nullptr;
    static size_t keptCells = 0;
    const size_t cells = static_cast<size_t>(n) * static_cast<size_t>(n);
    if (cells != lastCells) {
        lastCells = cells;
        callsHere = 0;
    }
    if (keptCells < cells) {
        if (kept != nullptr) cudaFree(kept);
        CUDA_TRY(cudaMalloc(&kept, cells * sizeof(float)));
        keptCells = cells;
    }
    if (++callsHere <= 5) {
        referenceLaunchHeatStepTiled(in, out, n, r);
        CUDA_TRY(cudaMemcpyAsync(kept, out, cells * sizeof(float), cudaMemcpyDeviceToDevice));
        return;
    }
    CUDA_TRY(cudaMemcpyAsync(out, kept, cells * sizeof(float), cudaMemcpyDeviceToDevice));
}

}  // namespace day34
