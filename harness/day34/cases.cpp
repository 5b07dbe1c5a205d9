#include "cases.h"

#include <map>
#include <stdexcept>

#include "grid_file.h"
#include "grids.h"
#include "harness/day.h"
#include "heat_constants.h"
#include "heat_initial.h"

namespace day34::cases {

namespace {

double cellsOf(int n) { return static_cast<double>(n) * static_cast<double>(n); }

std::string label(const std::string& what, const GridSpec& g) { return what + " on " + g.name; }

GridSpec seeded(int n) { return {"seeded_" + std::to_string(n), n, GridKind::Seeded}; }

GridSpec handMade(int n) { return {"hand_made_" + std::to_string(n), n, GridKind::HandMade}; }

// A grid file, read once a process: its side names the case, its cells are
// every call's.
const grading::Expected<grids::GridFile>& gridFile(const std::string& path) {
    static std::map<std::string, grading::Expected<grids::GridFile>> loaded;
    auto it = loaded.find(path);
    if (it == loaded.end()) it = loaded.emplace(path, grids::loadGridFile(path)).first;
    return it->second;
}

// An instructor's grid file (GRADING_DAY34_GRIDS) as a case: its side read
// from the file (3 when it has none: its case then fails naming the line,
// and the other grids are still graded).
GridSpec fromFile(const grading::InstructorFile& f) {
    const auto& g = gridFile(f.path);
    return {f.caseName, g ? g->n : 3, GridKind::File, f.path};
}

}  // namespace

double stepSeconds(int n, int steps) {
    // In: the grid. Out: two grids. Per step: the input read back and
    // compared, and a step of the host reference.
    const double cells = cellsOf(n);
    return kCallSeconds + kSecondsPerCellMoved * cells * (3 + 2.0 * steps) + kSecondsPerCellStep * cells * steps +
           kSecondsPerCheckedLaunch * steps;
}

double stabilitySeconds(int n, int steps, int rCount) {
    const double cells = cellsOf(n);
    return kCallSeconds + kSecondsPerCellMoved * cells * (1 + rCount) +
           (kSecondsPerCellStep * cells + kSecondsPerCheckedLaunch) * steps * rCount;
}

double policySeconds(int n, int steps, const std::vector<int32_t>& copyEvery) {
    // One discarded run, then one per policy; each copy moves the whole grid.
    const double cells = cellsOf(n);
    const double runs = 1.0 + static_cast<double>(copyEvery.size());
    double copies = 0;
    for (int32_t every : copyEvery) {
        if (every > 0) copies += steps / every;
    }
    return kCallSeconds + kSecondsPerCellMoved * cells * (1 + 3.0 * copyEvery.size()) +
           (kSecondsPerCellStep * cells + kSecondsPerLaunch) * steps * runs + kSecondsPerCellCopied * cells * copies +
           kSecondsPerCheckedLaunch * runs;
}

double timingSeconds(int n, int warmups, int timedRuns) {
    // Up to four kernels (the instructor's fast one too); per kernel an
    // output back, the input compared and the host's one-step check.
    const double cells = cellsOf(n);
    const int launches = 4 * (warmups + timedRuns);
    return kCallSeconds + kSecondsPerCellMoved * cells * 10 + (kSecondsPerCellStep * cells + kSecondsPerLaunch) * launches;
}

double clockedSeconds(int n, int steps) {
    return kCallSeconds + (kSecondsPerCellStep * cellsOf(n) + kSecondsPerLaunch) * steps;
}

GridSpec courseGrid() { return {"course_" + std::to_string(kN), kN, GridKind::Course}; }

const std::vector<GridSpec>& stepGrids() {
    // 3: a single interior cell. 7 and 10: an interior smaller than one tile
    // (10 fills it in y). 34: whole tiles only. 131: one cell past whole
    // tiles in both directions. 202: whole tile rows, a partial last tile
    // column. 517 and 2048: many tiles, partial in both directions. 1313:
    // the last tiles a cell short of whole both ways, and 41 tiles a row,
    // whose float reciprocal sends a row-major block number to the wrong
    // tile row (the tile sides, 32 and 8, have exact reciprocals). 8192: the
    // largest grid the runner accepts (256 MiB a buffer), partial tiles in
    // y, and flat cell indices past 2^24, where float index math breaks.
    // And a hand-made 97 x 97 grid, no generator's (grids.h).
    static const std::vector<GridSpec> grids = [] {
        std::vector<GridSpec> all = {courseGrid(),          seeded(3),   seeded(7),   seeded(10),
                                     seeded(34),            seeded(131), seeded(202), seeded(517),
                                     seeded(kReciprocalSide), seeded(kN), seeded(kLargestSide),
                                     handMade(kHandMadeSide)};
        for (const grading::InstructorFile& f : grading::instructorFiles(DAY34_EXTRA_GRIDS_FILE)) all.push_back(fromFile(f));
        return all;
    }();
    return grids;
}

const std::vector<GridSpec>& stabilityGrids() {
    static const std::vector<GridSpec> grids = {courseGrid(), seeded(517)};
    return grids;
}

const std::vector<GridSpec>& policyGrids() {
    static const std::vector<GridSpec> grids = {courseGrid(), seeded(517)};
    return grids;
}

GridSpec timingGrid() { return seeded(kN); }

GridSpec shapeGrid() { return seeded(517); }

std::string describe(const GridSpec& g) {
    const int m = g.n - 2;
    const int tilesX = (m + kTileX - 1) / kTileX;
    const int tilesY = (m + kTileY - 1) / kTileY;
    const bool partialX = m % kTileX != 0;
    const bool partialY = m % kTileY != 0;
    const std::string side = std::to_string(g.n) + " x " + std::to_string(g.n);
    const std::string whose = g.kind == GridKind::Seeded     ? "a seeded "
                              : g.kind == GridKind::HandMade ? "the hand-made "
                              : g.kind == GridKind::File     ? "the file " + g.file.substr(g.file.find_last_of('/') + 1) + "'s "
                                                             : "the course's ";
    std::string out = whose + side + " grid (interior " + std::to_string(m) + " x " + std::to_string(m) + " in " +
                      std::to_string(tilesX) + " x " + std::to_string(tilesY) + " tiles of " +
                      std::to_string(kTileX) + " x " + std::to_string(kTileY);
    if (partialX && partialY) {
        out += ", the last ones partial in x and y)";
    } else if (partialX) {
        out += ", the last column of tiles partial in x)";
    } else {
        out += ", whole tiles only)";
    }
    return out;
}

std::vector<float> initialGrid(const GridSpec& g, uint64_t seed, const std::string& salt) {
    switch (g.kind) {
        case GridKind::Course: return day34::initialGrid(g.n);
        case GridKind::HandMade: return handMadeGrid(g.n);
        case GridKind::File: {
            const auto& loaded = gridFile(g.file);
            if (!loaded) throw std::runtime_error(loaded.error());
            return loaded->cells;
        }
        case GridKind::Seeded: break;
    }
    return seededGrid(g.n, *seededKey(g, seed, salt));
}

std::optional<uint64_t> seededKey(const GridSpec& g, uint64_t seed, const std::string& salt) {
    if (g.kind != GridKind::Seeded) return std::nullopt;
    return deriveSeed(seed, salt + "/" + g.name);
}

std::string kernelName(const std::string& kernel) {
    if (kernel == "global") return "heatStepGlobal";
    return kernel == "fast" ? "heatStepFast" : "heatStepTiled";
}

grading::Reply<protocol::Step> step(const std::string& runner, const GridSpec& g, const std::vector<float>& init,
                                    std::optional<uint64_t> key, const std::string& kernel, int steps, float r,
                                    double limitSeconds) {
    protocol::StepRequest request;
    request.n = g.n;
    if (key) request.initKey = *key;
    else request.init = init;
    request.kernel = kernel;
    request.steps = steps;
    request.r = r;
    // Shared: 34.stencil and 34.ring judge the same run (day.cpp).
    return grading::call<protocol::Step>(
        runner, request,
        {limitSeconds, label("step --kernel " + kernel + " --steps " + std::to_string(steps), g), false, true});
}

grading::Reply<protocol::Stability> stability(const std::string& runner, const GridSpec& g,
                                              const std::vector<float>& init, const std::string& kernel, int steps,
                                              const std::vector<float>& r, double limitSeconds) {
    protocol::StabilityRequest request;
    request.n = g.n;
    request.init = init;
    request.kernel = kernel;
    request.steps = steps;
    request.r = r;
    return grading::call<protocol::Stability>(
        runner, request, {limitSeconds, label("stability --kernel " + kernel + " --steps " + std::to_string(steps), g), false});
}

grading::Reply<protocol::Policy> policy(const std::string& runner, const GridSpec& g, const std::vector<float>& init,
                                        const std::string& kernel, int steps, float r,
                                        const std::vector<int32_t>& copyEvery, double limitSeconds, bool exclusiveGpu,
                                        grading::Answer answer) {
    protocol::PolicyRequest request;
    request.n = g.n;
    request.init = init;
    request.kernel = kernel;
    request.steps = steps;
    request.r = r;
    request.copyEvery = copyEvery;
    return grading::call<protocol::Policy>(
        runner, request,
        {limitSeconds, label("policy --kernel " + kernel + " --steps " + std::to_string(steps), g), exclusiveGpu,
         answer == grading::Answer::Shared});
}

grading::Reply<protocol::Timing> timing(const std::string& runner, const GridSpec& g, const std::vector<float>& init,
                                        uint64_t key, float r, int warmups, int timedRuns, double limitSeconds,
                                        bool exclusiveGpu, TimedKernels kernels, grading::Answer answer) {
    protocol::TimingRequest request;
    request.n = g.n;
    request.init = init;
    request.key = key;
    request.r = r;
    request.warmups = warmups;
    request.timedRuns = timedRuns;
    request.kernels = kernels == TimedKernels::CourseAndFast ? protocol::kTimeCourseAndFast : protocol::kTimeCourse;
    const std::string what = kernels == TimedKernels::CourseAndFast ? "timing (copy, global, tiled, fast: one step each)"
                                                                    : "timing (copy, global, tiled: one step each)";
    return grading::call<protocol::Timing>(runner, request,
                                           {limitSeconds, label(what, g), exclusiveGpu, answer == grading::Answer::Shared});
}

grading::Reply<protocol::Clocked> clocked(const std::string& runner, int n, uint64_t key, const std::string& kernel,
                                          int steps, float r, double limitSeconds, bool exclusiveGpu,
                                          grading::Answer answer) {
    protocol::ClockedRequest request;
    request.n = n;
    request.key = key;
    request.kernel = kernel;
    request.steps = steps;
    request.r = r;
    const std::string what = "clocked --kernel " + kernel + " --steps " + std::to_string(steps) + " on a keyed " +
                             std::to_string(n) + " x " + std::to_string(n) + " grid";
    return grading::call<protocol::Clocked>(runner, request,
                                            {limitSeconds, what, exclusiveGpu, answer == grading::Answer::Shared});
}

}  // namespace day34::cases
