#pragma once
// What the day 34 gates grade on: the grids (the course's 2048 x 2048 and
// seeded ones of sizes that do and do not fill whole tiles), one typed
// runner call per question, and the time limits, in one place, each scaled
// by the work it bounds (cells x steps).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/runner_client.h"
#include "heat_constants.h"
#include "protocol.h"

namespace day34::cases {

// The largest side the runner accepts (runner.cu: kMaxSide), graded.
constexpr int kLargestSide = 8192;

// ---- time limits. Each rate is ten or more times what a T4 needs (a step
// of 2048 x 2048 there: about 0.1 ms; a 16 MiB copy to host memory:
// about 6 ms), so a GPU shared with three other runners (gpu_slots.h) still
// finishes well inside. The framework multiplies them under compute-sanitizer.
constexpr double kCallSeconds = 15.0;              // process start, CUDA context, buffers
constexpr double kSecondsPerCellMoved = 5e-8;      // one float into or out of the runner, with the checks on it
constexpr double kSecondsPerCellStep = 2e-9;       // one cell of one step on the GPU
constexpr double kSecondsPerLaunch = 1e-3;         // any launch, on top of its cells
constexpr double kSecondsPerCheckedLaunch = 5e-3;  // a launch's synchronization and guard-word reads
constexpr double kSecondsPerCellCopied = 2e-8;     // one float copied back to the host inside a loop

double stepSeconds(int n, int steps);
double stabilitySeconds(int n, int steps, int rCount);
double policySeconds(int n, int steps, const std::vector<int32_t>& copyEvery);
double timingSeconds(int n, int warmups, int timedRuns);
double clockedSeconds(int n, int steps);

// ---- the grids. All square: the course's kernels take one n.
enum class GridKind {
    Course,  // the course's initial condition (heat_initial.h)
    Seeded,  // seededGrid, from a key derived from the grading seed per call
    HandMade,  // grids.h's handMadeGrid, no generator's, the same in every call
    File,      // a grid file's (grid_file.h: GRADING_DAY34_GRIDS)
};
struct GridSpec {
    std::string name;  // course_2048, seeded_131, hand_made_97, file0_a_txt ([A-Za-z0-9_]: it names cases)
    int n = 0;
    GridKind kind = GridKind::Seeded;
    std::string file;  // a File grid's path
};

// 41 tiles a row, the fewest whose float reciprocal sends a block numbered
// along the rows to the wrong tile row (plants.cmake, tile_row_in_float);
// with its interior of 1311 the last tiles are a cell short of whole in x
// (31 of 32) and in y (7 of 8).
constexpr int kReciprocalSide = 1313;
// The hand-made grid's side: interior 95, partial tiles both ways.
constexpr int kHandMadeSide = 97;

GridSpec courseGrid();                           // the course's 2048 x 2048 initial condition
const std::vector<GridSpec>& stepGrids();        // 34.stencil and 34.ring, the grid files' last
const std::vector<GridSpec>& stabilityGrids();   // 34.max_principle and 34.unstable
const std::vector<GridSpec>& policyGrids();      // 34.copy_policy
GridSpec timingGrid();                           // 34.timing and 34.speed
// 34.timing's and 34.speed's call of another shape, between calls on
// timingGrid(): a smaller grid at another r (kShapeR), so no gate's process
// sees one shape only.
GridSpec shapeGrid();
constexpr float kShapeR = kBoundaryR;

// "the course's 2048 x 2048 grid", "a seeded 131 x 131 grid (interior
// 129 x 129 in 5 x 17 tiles of 32 x 8, the last ones partial in x and y)".
std::string describe(const GridSpec& g);

// The course's initial condition, the hand-made grid, a grid file's (throws
// naming the file and line when it is malformed), or a seeded grid from
// deriveSeed(seed, salt and the grid's name): the salt names the call (gate,
// kernel), so every call gets its own grid.
std::vector<float> initialGrid(const GridSpec& g, uint64_t seed, const std::string& salt);
// The key initialGrid made a seeded grid from; nullopt for the other kinds.
std::optional<uint64_t> seededKey(const GridSpec& g, uint64_t seed, const std::string& salt);

std::string kernelName(const std::string& kernel);  // global -> heatStepGlobal, tiled -> heatStepTiled, fast -> heatStepFast

// ---- the runner calls
// `init` travels whole, or, given its seeded key, only the key (the runner
// makes the same grid on the device).
grading::Reply<protocol::Step> step(const std::string& runner, const GridSpec& g, const std::vector<float>& init,
                                    std::optional<uint64_t> key, const std::string& kernel, int steps, float r,
                                    double limitSeconds);
grading::Reply<protocol::Stability> stability(const std::string& runner, const GridSpec& g,
                                              const std::vector<float>& init, const std::string& kernel, int steps,
                                              const std::vector<float>& r, double limitSeconds);
grading::Reply<protocol::Policy> policy(const std::string& runner, const GridSpec& g, const std::vector<float>& init,
                                        const std::string& kernel, int steps, float r,
                                        const std::vector<int32_t>& copyEvery, double limitSeconds, bool exclusiveGpu,
                                        grading::Answer answer = grading::Answer::Fresh);
// Which kernels a timing call times, one step each.
enum class TimedKernels {
    Course,         // copyGrid, heatStepGlobal and heatStepTiled
    CourseAndFast,  // and the instructor's fast stencil, where the runner has it (fastMs empty where not)
};
// Timed run 0 steps `init`; every later run a grid the runner makes from
// `key` (protocol.h, TimingResult): give each call a key of its own.
grading::Reply<protocol::Timing> timing(const std::string& runner, const GridSpec& g, const std::vector<float>& init,
                                        uint64_t key, float r, int warmups, int timedRuns, double limitSeconds,
                                        bool exclusiveGpu, TimedKernels kernels = TimedKernels::Course,
                                        grading::Answer answer = grading::Answer::Fresh);

// `steps` chained steps of `kernel` from the grid the runner makes from
// `key`, timed by the grader's clock (protocol.h, ClockedRequest).
grading::Reply<protocol::Clocked> clocked(const std::string& runner, int n, uint64_t key, const std::string& kernel,
                                          int steps, float r, double limitSeconds, bool exclusiveGpu,
                                          grading::Answer answer = grading::Answer::Fresh);

}  // namespace day34::cases
