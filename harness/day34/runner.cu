// The day 34 runner: the course's heat.cu as subcommands (protocol.h), linked
// with the course's kernels and ping-pong and one tiled kernel (the solution,
// the submission, the stub or a planted bug), and, in the reference runner
// only, the instructor's fast stencil (kernel "fast", fast_stencil.h). It
// reports what the kernels produced; the grader decides whether that is right.
//
// Every grid lives in a GridBuffer: guard words before and after it, and on
// devices with virtual memory management an unmapped page after those, so a
// kernel that reads past the grid (an apron cell below the last row that was
// not loaded as cold) faults instead of reading a plausible neighbour.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fast_stencil.h"
#include "harness/cuda_check.h"
#include "harness/event_timer.h"
#include "harness/guarded_buffer.h"
#include "harness/pinned_host.h"
#include "harness/poison.h"
#include "harness/runner_main.h"
#include "harness/splitmix64.h"
#include "harness/sum_of_squares.h"
#include "harness/timed_run_check.h"
#include "heat_kernels.h"
#include "heat_pingpong.h"
#include "keyed_grid.h"
#include "gates.h"
#include "protocol.h"

namespace {

using grading::InputError;
namespace proto = day34::protocol;
using day34::cellName;
using day34::formatValue;

// A grid: guard words before and after it and, where the device allows, an
// unmapped page after those, so a kernel that reads past the grid (an apron
// cell below the last row that was not loaded as cold) faults instead of
// reading a plausible neighbour.
class GridBuffer : public grading::GuardedBuffer<float> {
public:
    GridBuffer(std::string name, size_t cells) : GuardedBuffer(std::move(name), cells, grading::GuardPages::After) {}

    // Rows and columns 1 .. n - 2 only: the ring keeps what it holds.
    void poisonInterior(int n) {
        const size_t stride = static_cast<size_t>(n);
        const size_t inner = static_cast<size_t>(n - 2);
        CUDA_TRY(cudaMemset2D(data() + stride + 1, stride * sizeof(float), grading::kPoisonByte, inner * sizeof(float),
                              inner));
    }
};

// The two ping-pong buffers of one n x n grid.
struct PingPong {
    explicit PingPong(int side)
        : n(side), cells(static_cast<size_t>(side) * static_cast<size_t>(side)), a("gridA", cells), b("gridB", cells) {
        guards.add(a);
        guards.add(b);
    }

    // As if both were freshly allocated, then the course's reset (both
    // buffers, or whatever a planted copy of it does).
    void reset(const float* init) {
        a.poison();
        b.poison();
        day34::resetPingPong(a.data(), b.data(), init, cells);
    }

    void checkGuards(const std::string& where) const { guards.check(where); }

    int n;
    size_t cells;
    GridBuffer a;
    GridBuffer b;
    grading::GuardSet guards;
};

// ---- inputs

enum class Kernel { Global, Tiled, Fast };

Kernel parseKernel(const std::string& name) {
    if (name == "global") return Kernel::Global;
    if (name == "tiled") return Kernel::Tiled;
    if (name == "fast") return Kernel::Fast;
    throw std::logic_error("kernel \"" + name + "\" passed the request's limits (protocol.h: kKernels)");
}

const char* kernelName(Kernel k) {
    switch (k) {
        case Kernel::Global: return "heatStepGlobal";
        case Kernel::Tiled: return "heatStepTiled";
        case Kernel::Fast: return "heatStepFast";
    }
    return "";
}

day34::StepLauncher launcherFor(Kernel k) {
    switch (k) {
        case Kernel::Global: return day34::launchHeatStepGlobal;
        case Kernel::Tiled: return day34::launchHeatStepTiled;
        case Kernel::Fast: return day34::launchHeatStepFast;  // the absent one says so when called
    }
    return nullptr;
}

void checkGrid(int n, const std::vector<float>& init) {
    const size_t cells = static_cast<size_t>(n) * static_cast<size_t>(n);
    if (init.size() != cells) {
        throw InputError("init holds " + std::to_string(init.size()) + " floats, want n * n = " + std::to_string(cells));
    }
}

std::string formatR(float r) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.2f", static_cast<double>(r));
    return text;
}

// A kernel reads `in` only: one that writes it changes what the next step
// and the ring check see, so it is stopped there, naming the cell.
grading::InputWatch::Names cellNames(int n) {
    return {[n](size_t i) { return cellName(i, n); },
            [](const void* v) {
                float f;
                std::memcpy(&f, v, sizeof f);
                return formatValue(f);
            }};
}

// `steps` steps from a reset, each launch checked (errors, guard words);
// `poison` also poisons the output's interior first and checks that the
// input was only read. Returns the buffer holding the newest grid.
GridBuffer* checkedRun(PingPong& p, const float* init, Kernel k, float r, int steps, bool poison) {
    p.reset(init);
    GridBuffer* cur = &p.a;
    GridBuffer* next = &p.b;
    const day34::StepLauncher launch = launcherFor(k);
    std::optional<grading::InputWatch> input;
    if (poison) input.emplace();
    for (int step = 1; step <= steps; ++step) {
        grading::lendGpuToMeasurements();
        const std::string where = std::string(kernelName(k)) + " step " + std::to_string(step) + " of " +
                                  std::to_string(steps) + " at r = " + formatR(r);
        if (poison) {
            next->poisonInterior(p.n);
            input->keep(*cur, p.cells, cellNames(p.n));
        }
        grading::breadcrumb(where);
        launch(cur->data(), next->data(), p.n, r);
        grading::checkLaunch(where);
        p.checkGuards(where);
        if (poison) {
            input->check(where);
            input->release(*cur);  // the next step's output: kept, it would read as an input written
        }
        std::swap(cur, next);
    }
    return cur;
}

// The ring of a grid, in ringCell order (gates.h): its first and last rows
// and columns, four copies, where the grader needs nothing else of it.
std::vector<float> downloadRing(const GridBuffer& g, int n) {
    const size_t side = static_cast<size_t>(n);
    const size_t pitch = side * sizeof(float);
    std::vector<float> top(side), bottom(side), left(side - 2), right(side - 2);
    CUDA_TRY(cudaMemcpy(top.data(), g.data(), pitch, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(bottom.data(), g.data() + (side - 1) * side, pitch, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy2D(left.data(), sizeof(float), g.data() + side, pitch, sizeof(float), side - 2,
                          cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy2D(right.data(), sizeof(float), g.data() + side + side - 1, pitch, sizeof(float), side - 2,
                          cudaMemcpyDeviceToHost));
    std::vector<float> ring(day34::ringCells(n));
    for (size_t k = 0; k < ring.size(); ++k) {
        const size_t i = day34::ringCell(k, n);
        const size_t row = i / side, col = i % side;
        ring[k] = row == 0 ? top[col] : row == side - 1 ? bottom[col] : col == 0 ? left[row - 1] : right[row - 1];
    }
    return ring;
}

// ---- subcommands

__global__ void seededGridKernel(float* grid, int n, size_t cells, uint64_t key) {
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < cells; i += size_t{gridDim.x} * blockDim.x) {
        grid[i] = day34::seededCell(key, n, i);
    }
}

// The seeded grid of `key`, made on the device in `scratch` and brought to
// `host` in one pinned copy: the course's reset reads its grid from the
// host, as it does every other.
void makeSeededGrid(int n, uint64_t key, const GridBuffer& scratch, grading::PinnedHost<float>& host) {
    seededGridKernel<<<1024, 256>>>(scratch.data(), n, host.size(), key);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaMemcpy(host.data(), scratch.data(), host.size() * sizeof(float), cudaMemcpyDeviceToHost));
}

proto::StepResult step(const proto::StepRequest& req) {
    const Kernel k = parseKernel(req.kernel);
    PingPong p(req.n);
    const float* init = req.init.data();
    std::optional<grading::PinnedHost<float>> seeded;
    if (req.init.empty()) {
        seeded.emplace(p.cells);
        makeSeededGrid(req.n, req.initKey, p.b, *seeded);  // in the second buffer, which the reset overwrites
        init = seeded->data();
    } else {
        checkGrid(req.n, req.init);
    }
    const GridBuffer* newest = checkedRun(p, init, k, req.r, req.steps, true);
    const GridBuffer* other = newest == &p.a ? &p.b : &p.a;
    proto::StepResult result;
    result.grid = newest->download();
    result.previousRing = downloadRing(*other, req.n);
    return result;
}

proto::StabilityResult stability(const proto::StabilityRequest& req) {
    checkGrid(req.n, req.init);
    const Kernel k = parseKernel(req.kernel);
    PingPong p(req.n);
    proto::StabilityResult result;
    result.finals.reserve(req.r.size() * p.cells);
    for (float r : req.r) {
        // No poison here: these runs are about what the numbers do, and a
        // kernel that skips cells already fails 34.stencil.
        const std::vector<float> grid = checkedRun(p, req.init.data(), k, r, req.steps, false)->download();
        result.finals.insert(result.finals.end(), grid.begin(), grid.end());
    }
    return result;
}

proto::PolicyResult policy(const proto::PolicyRequest& req) {
    checkGrid(req.n, req.init);
    const Kernel k = parseKernel(req.kernel);
    // An even count ends the course's ping-pong with the newest grid in the first buffer.
    if (req.steps % 2 != 0) throw InputError("steps wants an even count");
    for (int every : req.copyEvery) {
        if (every < 0 || every > req.steps) throw InputError("copy_every wants 0 .. steps, got " + std::to_string(every));
    }
    PingPong p(req.n);
    const day34::StepLauncher launch = launcherFor(k);
    const auto run = [&](int every, const std::string& what, grading::PinnedHost<float>& snapshot) {
        const std::string where = std::string(kernelName(k)) + ", " + std::to_string(req.steps) + " steps " + what;
        p.reset(req.init.data());
        grading::breadcrumb(where);
        const float ms = day34::runSteps(launch, p.a.data(), p.b.data(), p.n, req.r, req.steps, every, snapshot.data());
        grading::checkLaunch(where);
        p.checkGuards(where);
        return ms;
    };
    proto::PolicyResult result;
    // The host copy is pinned: a pageable one's cost moved by 20% from one
    // runner process to the next, which no report could repeat.
    grading::PinnedHost<float> snapshot(p.cells);
    // The loops and what lies between them in one measurement: a wait for
    // the GPU exclusively costs more than the downloads it would leave out.
    const grading::TimedSection measuring;
    // Discarded: without it the first row pays the clock ramp of whatever ran before.
    run(0, "(discarded warm-up run)", snapshot);
    for (int every : req.copyEvery) {
        grading::lendGpuToMeasurements();  // between loops, never inside one
        std::fill(snapshot.begin(), snapshot.end(), 0.0f);  // nothing left from the last policy
        const std::string what = every == 0 ? "never copied back" : "copied back every " + std::to_string(every);
        result.loopMs.push_back(run(every, what, snapshot));
        const std::vector<float> last = p.a.download();
        result.finals.insert(result.finals.end(), last.begin(), last.end());
        if (every > 0) result.snapshots.insert(result.snapshots.end(), snapshot.begin(), snapshot.end());
    }
    return result;
}

// What a timed call's pairs of grids may take in all (the 2048 grid's 10 runs and warm-ups: 352 MiB).
constexpr size_t kTimedRunBytes = size_t{4} << 30;

// A grid made from a key (keyed_grid.h) into a and b alike.
__global__ void keyedGrid(float* a, float* b, size_t cells, uint64_t key) {
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < cells; i += size_t{gridDim.x} * blockDim.x) {
        const float v = day34::keyedCell(key, i);
        a[i] = v;
        b[i] = v;
    }
}

void enqueueKeyedGrid(float* a, float* b, size_t cells, uint64_t key) {
    keyedGrid<<<1024, 256>>>(a, b, cells, key);
    CUDA_TRY(cudaGetLastError());
}

// A timing call's runs: every timed run has buffers of its own and a grid
// of its own, as a checked step has: run 0 the request's, whose output
// comes back whole and is graded as an untimed step is; every later run one
// made on the device from its own key (keyed_grid.h), none derived from
// another's, so no answer kept from one run serves the next. A run reads a
// and writes b, which starts poisoned (the whole of it for the copy, which
// writes the ring too), so what the run leaves there is its own. The
// warm-ups have a pair of their own.
class TimedSteps {
public:
    using Launch = std::function<void(const float* in, float* out)>;
    struct Timed {
        std::vector<float> samplesMs;
        std::vector<float> runZero;    // what timed run 0 left, for the grader to check
        std::vector<int64_t> runDiff;  // protocol.h, TimingResult
    };

    explicit TimedSteps(const proto::TimingRequest& req)
        : req_(req), n_(req.n), cells_(static_cast<size_t>(req.n) * static_cast<size_t>(req.n)),
          runZero_("timed run 0's output", cells_), given_("a timed run's input as it was given", cells_),
          answer_("the course's answer to a timed run's input", cells_) {
        for (int i = 0; i <= req.timedRuns; ++i) pairs_.push_back(std::make_unique<PingPong>(n_));
    }

    // One kernel's warm-ups and timed runs, each run checked after its stop
    // event, outside what is timed: run 0's output kept; any later run's b
    // against the course's answer to its input (heatStepGlobal's step of it;
    // the copy's, the input itself) within kTimedRunTolerance, and its a
    // against that input as it was given.
    Timed time(const std::string& name, bool wholeGrid, const Launch& launch) {
        const int kernel = kernels_++;
        prepare(kernel, wholeGrid);
        grading::RunAnswerCheck answers(req_.timedRuns);
        grading::RunAnswerCheck inputs(req_.timedRuns);
        const PingPong* current = pairs_.back().get();  // the warm-ups'
        grading::TimedRunHooks hooks;
        hooks.before = [&](int r) { current = pairs_[r].get(); };
        hooks.after = [&](int r) {
            const PingPong& p = *pairs_[r];
            if (r == 0) {
                CUDA_TRY(cudaMemcpyAsync(runZero_.data(), p.b.data(), cells_ * sizeof(float), cudaMemcpyDeviceToDevice));
                return;
            }
            enqueueKeyedGrid(given_.data(), answer_.data(), cells_, day34::timedRunKey(req_.key, kernel, r));
            if (!wholeGrid) day34::launchHeatStepGlobal(given_.data(), answer_.data(), n_, req_.r);
            answers.compare(r, p.b.data(), answer_.data(), cells_, wholeGrid ? 0.0f : day34::kTimedRunTolerance, nullptr);
            inputs.compare(r, p.a.data(), given_.data(), cells_, 0.0f, nullptr);
        };
        const std::string where = "timing " + name + " (one step, " + std::to_string(req_.warmups) + " warm-ups, " +
                                  std::to_string(req_.timedRuns) + " timed runs)";
        grading::breadcrumb(where);
        Timed t;
        t.samplesMs = grading::timeRuns([&] { launch(current->a.data(), current->b.data()); }, where, req_.warmups,
                                        req_.timedRuns, nullptr, hooks)
                          .samplesMs;
        grading::checkLaunch(where);
        checkAfter(where, inputs.firstDifferences());
        t.runDiff = answers.firstDifferences();
        t.runZero = runZero_.download();
        return t;
    }

private:
    // Run 0's pair from the request, every other pair (the warm-ups' last)
    // from its key; every b poisoned.
    void prepare(int kernel, bool wholeGrid) {
        pairs_[0]->reset(req_.init.data());
        for (int i = 1; i <= req_.timedRuns; ++i) {
            enqueueKeyedGrid(pairs_[i]->a.data(), pairs_[i]->b.data(), cells_, day34::timedRunKey(req_.key, kernel, i));
        }
        for (const auto& p : pairs_) {
            if (wholeGrid) p->b.poison();
            else p->b.poisonInterior(n_);
        }
        runZeroInput_.keep(pairs_[0]->a, cells_, cellNames(n_));
    }

    // Guards intact, and every run's input as it was given: one written is
    // named, whichever run wrote it.
    void checkAfter(const std::string& where, const std::vector<int64_t>& written) {
        for (const auto& p : pairs_) p->checkGuards(where);
        for (const GridBuffer* g : {&runZero_, &given_, &answer_}) {
            if (const auto v = g->violation()) throw grading::GuardViolation("after " + where + ": " + *v);
        }
        runZeroInput_.check(where + ", timed run 0,");
        for (int r = 0; r < req_.timedRuns; ++r) {
            if (written[r] < 0) continue;
            throw grading::ContractViolation(where + ", timed run " + std::to_string(r) + ", wrote to its input " +
                                             pairs_[r]->a.name() + " at " + cellName(static_cast<size_t>(written[r]), n_));
        }
    }

    const proto::TimingRequest& req_;
    int n_;
    size_t cells_;
    std::vector<std::unique_ptr<PingPong>> pairs_;  // run i's, then the warm-ups'
    GridBuffer runZero_, given_, answer_;
    grading::InputWatch runZeroInput_;  // run 0's input is the request's, kept on the device as it was
    int kernels_ = 0;  // timed so far: each kernel's runs have keys of their own
};

proto::TimingResult timing(const proto::TimingRequest& req) {
    checkGrid(req.n, req.init);
    const int n = req.n;
    const size_t cells = static_cast<size_t>(n) * static_cast<size_t>(n);
    if ((static_cast<double>(req.timedRuns) + 1) * 2 * cells * sizeof(float) > kTimedRunBytes) {
        throw InputError("timed_runs x n x n wants at most " + std::to_string(kTimedRunBytes >> 30) +
                         " GiB of grids in all (each run has a pair of its own)");
    }
    TimedSteps steps(req);
    proto::TimingResult result;
    const auto keep = [](TimedSteps::Timed t, std::vector<float>& ms, std::vector<float>& out, std::vector<int64_t>& diff) {
        ms = std::move(t.samplesMs);
        out = std::move(t.runZero);
        diff = std::move(t.runDiff);
    };
    const grading::TimedSection measuring;  // every kernel's runs under one wait for the GPU exclusively
    keep(steps.time("copyGrid", true, [&](const float* a, float* b) { day34::launchCopyGrid(a, b, cells); }),
         result.copyMs, result.copyOut, result.copyRunDiff);
    keep(steps.time("heatStepGlobal", false,
                    [&](const float* a, float* b) { day34::launchHeatStepGlobal(a, b, n, req.r); }),
         result.globalMs, result.globalOut, result.globalRunDiff);
    keep(steps.time("heatStepTiled", false, [&](const float* a, float* b) { day34::launchHeatStepTiled(a, b, n, req.r); }),
         result.tiledMs, result.tiledOut, result.tiledRunDiff);
    if (req.kernels == proto::kTimeCourseAndFast && day34::fastStencilAvailable()) {
        keep(steps.time("heatStepFast", false,
                        [&](const float* a, float* b) { day34::launchHeatStepFast(a, b, n, req.r); }),
             result.fastMs, result.fastOut, result.fastRunDiff);
    }
    return result;
}

// ---- the clocked steps (a speed gate's measure)

proto::ClockedResult clocked(const proto::ClockedRequest& req) {
    const Kernel k = parseKernel(req.kernel);
    const day34::StepLauncher launch = launcherFor(k);
    PingPong p(req.n);
    grading::GuardedBuffer<double> energy("the energy", 1);
    grading::GuardedBuffer<unsigned long long> nonFinite("the non-finite count", 1);
    CUDA_TRY(cudaMemset(energy.data(), 0, sizeof(double)));
    CUDA_TRY(cudaMemset(nonFinite.data(), 0, sizeof(unsigned long long)));
    const std::string where = std::string(kernelName(k)) + ", " + std::to_string(req.steps) + " clocked steps";
    grading::breadcrumb(where);
    {
        // Everything the grader's clock should see, on the GPU alone.
        const grading::TimedSection measuring;
        enqueueKeyedGrid(p.a.data(), p.b.data(), p.cells, req.key);
        GridBuffer* cur = &p.a;
        GridBuffer* next = &p.b;
        for (int step = 0; step < req.steps; ++step) {
            launch(cur->data(), next->data(), p.n, req.r);
            std::swap(cur, next);
        }
        grading::enqueueSumOfSquares(cur->data(), p.cells, energy.data(), nonFinite.data());
        grading::checkLaunch(where);  // waits for the steps and the digest
    }
    p.checkGuards(where);
    proto::ClockedResult result;
    unsigned long long bad = 0;
    CUDA_TRY(cudaMemcpy(&result.energy, energy.data(), sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(&bad, nonFinite.data(), sizeof(bad), cudaMemcpyDeviceToHost));
    result.nonFinite = static_cast<int64_t>(bad);
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    grading::runnerMain(argc, argv,
                        {grading::serve<proto::Step>(step), grading::serve<proto::Stability>(stability),
                         grading::serve<proto::Policy>(policy), grading::serve<proto::Timing>(timing),
                         grading::serve<proto::Clocked>(clocked)});
}
