// The day 52 runner: the course's events_forkjoin.cu as subcommands, linked
// with one enqueueDiamond (reference, submission, stub or a planted bug) and
// one setup (createDiamond: reference or planted). It reports what the
// kernels produced and the times; the grading process decides.
//
//   diamond                  one submitted diamond (d_mid, branches, out poisoned first).
//                            result: out f32[kElems]
//   serial                   the reference serial version. result: out f32[kElems]
//   stress [--runs K] [--upstream-hold-ms U] [--branch-hold-ms B]
//                            one serial run (warm-up: every kernel loaded), then
//                            K submitted diamonds; before each, d_mid zeroed and the branches
//                            and out poisoned; the upstream held U ms and branch (r % 4) held
//                            B ms (grind_delay.h). result: runs i64, out_<r> f32[kElems] per run,
//                            held_branch i32[K], run_ms f32[K] (host clock),
//                            upstream_hold_ms f64, branch_hold_ms f64
//   no-timing                records the dependency events, then cudaEventElapsedTime(fork,
//                            branchDone[j]) for each j, clearing the error slot after each.
//                            result: probes i64, events_<j>, elapsed_error_<j>,
//                            slot_cleared_<j> (what the clearing cudaGetLastError returned),
//                            slot_after_clear_<j> (str, error names)
//   timing [--warmups W] [--runs K]
//                            the submitted diamond, then the serial version, each timed per run
//                            with events after W warm-ups. result: diamond_ms f32[K],
//                            serial_ms f32[K], out f32[kElems] (the diamond's, after timing)
//   broken                   one serial run (warm-up), d_mid zeroed, then the course's broken
//                            order. result: out f32[kElems]
//
// Every path releases every stream, event and buffer (RAII), and main resets
// the device at the end so compute-sanitizer's leak check sees a destroyed
// context.
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "day52_stress.h"
#include "forkjoin.h"
#include "grind_delay.h"
#include "harness/cuda_check.h"
#include "harness/event_timer.h"
#include "harness/guarded_buffer.h"
#include "harness/runner_client.h"
#include "harness/runner_main.h"

namespace {

using day52::kBranches;
using day52::kElems;
using grading::GuardedBuffer;
using grading::InputError;
using grading::Record;
using grading::RunnerArgs;

// The streams and events of one diamond, made by the setup unit and
// destroyed on every way out, a half-finished createDiamond included.
class DiamondHandles {
public:
    DiamondHandles() {
        try {
            day52::createDiamond(d);
        } catch (...) {
            day52::destroyDiamond(d);
            throw;
        }
    }
    ~DiamondHandles() { day52::destroyDiamond(d); }
    DiamondHandles(const DiamondHandles&) = delete;
    DiamondHandles& operator=(const DiamondHandles&) = delete;
    // The normal way out: errors from releasing them count.
    void release() { CUDA_TRY(day52::destroyDiamond(d)); }

    day52::Diamond d{};
};

// The diamond's buffers (guarded) and handles, released on every way out.
class Rig {
public:
    Rig() : in_("d_in", kElems), mid_("d_mid", kElems), out_("d_out", kElems) {
        for (int j = 0; j < kBranches; ++j) {
            branch_[j] = std::make_unique<GuardedBuffer<float>>("d_branch[" + std::to_string(j) + "]", kElems);
        }
        handles_ = std::make_unique<DiamondHandles>();
        day52::Diamond& d = handles_->d;
        d.d_in = in_.data();
        d.d_mid = mid_.data();
        for (int j = 0; j < kBranches; ++j) d.d_branch[j] = branch_[j]->data();
        d.d_out = out_.data();
        guards_.add(in_);
        guards_.add(mid_);
        for (const auto& b : branch_) guards_.add(*b);
        guards_.add(out_);

        std::vector<float> input(kElems);
        for (size_t i = 0; i < kElems; ++i) input[i] = day52::courseInput(i);
        in_.upload(input);
    }
    Rig(const Rig&) = delete;
    Rig& operator=(const Rig&) = delete;

    const day52::Diamond& diamond() const { return handles_->d; }
    const float* branch(int j) const { return branch_[j]->data(); }

    // Nothing left over from an earlier run can look like a right answer.
    void poisonOutputs() {
        mid_.poison();
        for (const auto& b : branch_) b->poison();
        out_.poison();
    }
    void zeroMid() { CUDA_TRY(cudaMemset(mid_.data(), 0, kElems * sizeof(float))); }

    // Queues work with `enqueue`, waits for all of it, checks errors and guards.
    void run(const std::string& where, const std::function<void()>& enqueue) {
        grading::breadcrumb(where);
        enqueue();
        grading::checkLaunch(where);
        guards_.check(where);
    }
    void checkGuards(const std::string& after) const { guards_.check(after); }

    std::vector<float> out() const { return out_.download(); }

    void release() { handles_->release(); }

private:
    // Declared before the handles, so the streams and events go first.
    GuardedBuffer<float> in_;
    GuardedBuffer<float> mid_;
    std::array<std::unique_ptr<GuardedBuffer<float>>, kBranches> branch_;
    GuardedBuffer<float> out_;
    grading::GuardSet guards_;
    std::unique_ptr<DiamondHandles> handles_;
};

// One event the runner itself owns.
class ScopedEvent {
public:
    explicit ScopedEvent(unsigned int flags) { CUDA_TRY(cudaEventCreateWithFlags(&e_, flags)); }
    ~ScopedEvent() { cudaEventDestroy(e_); }
    ScopedEvent(const ScopedEvent&) = delete;
    ScopedEvent& operator=(const ScopedEvent&) = delete;
    cudaEvent_t get() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

// Clears the grind hold on every way out of the stress runs.
class HoldScope {
public:
    HoldScope() = default;
    ~HoldScope() {
        if (!set_) return;
        try {
            day52::clearGrindHold();
        } catch (...) {
            // Only the process's own later launches could notice, and it is ending.
        }
    }
    HoldScope(const HoldScope&) = delete;
    HoldScope& operator=(const HoldScope&) = delete;
    void set(const day52::GrindHold& hold) {
        set_ = true;
        day52::setGrindHold(hold);
    }

private:
    bool set_ = false;
};

void diamondCommand(const RunnerArgs&, Record& result) {
    Rig rig;
    rig.poisonOutputs();
    rig.run("enqueueDiamond (one diamond)", [&] { day52::enqueueDiamond(rig.diamond()); });
    result.putFloats("out", rig.out());
    rig.release();
}

void serialCommand(const RunnerArgs&, Record& result) {
    Rig rig;
    rig.poisonOutputs();
    rig.run("enqueueSerial (the serial version)", [&] { day52::enqueueSerial(rig.diamond()); });
    result.putFloats("out", rig.out());
    rig.release();
}

void stressCommand(const RunnerArgs& args, Record& result) {
    const int runs = args.integer("runs", day52::kStressRuns);
    const double upstreamMs = args.real("upstream-hold-ms", day52::kUpstreamHoldMs);
    const double branchMs = args.real("branch-hold-ms", day52::kBranchHoldMs);
    if (runs < 1 || runs > day52::kMaxStressRuns) {
        throw InputError("--runs wants 1.." + std::to_string(day52::kMaxStressRuns) + ", got " + std::to_string(runs));
    }
    for (const double h : {upstreamMs, branchMs}) {
        if (!(h >= 0.0 && h <= day52::kMaxHoldMs)) throw InputError("a hold must be 0..1000 ms");
    }
    Rig rig;
    // Load every kernel first: a kernel's first launch may load its module,
    // and loading may wait for the kernels already running, which would
    // order the diamond by accident.
    rig.run("enqueueSerial (warm-up before the stress runs)", [&] { day52::enqueueSerial(rig.diamond()); });
    HoldScope holdScope;
    std::vector<int32_t> held(runs);
    std::vector<float> runMs(runs);
    for (int r = 0; r < runs; ++r) {
        rig.poisonOutputs();
        rig.zeroMid();
        held[r] = day52::heldBranch(r);
        day52::GrindHold hold{};
        hold.out[0] = rig.diamond().d_mid;
        hold.ns[0] = static_cast<unsigned long long>(upstreamMs * 1e6);
        hold.out[1] = rig.branch(held[r]);
        hold.ns[1] = static_cast<unsigned long long>(branchMs * 1e6);
        holdScope.set(hold);

        const auto start = std::chrono::steady_clock::now();
        rig.run("enqueueDiamond (stress run " + std::to_string(r) + ", branch " + std::to_string(held[r]) + " held)",
                [&] { day52::enqueueDiamond(rig.diamond()); });
        runMs[r] = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
        result.putFloats("out_" + std::to_string(r), rig.out());
    }
    result.putInt("runs", runs);
    result.putInts("held_branch", held);
    result.putFloats("run_ms", runMs);
    result.putDouble("upstream_hold_ms", upstreamMs);
    result.putDouble("branch_hold_ms", branchMs);
    rig.release();
}

void noTimingCommand(const RunnerArgs&, Record& result) {
    Rig rig;
    const day52::Diamond& d = rig.diamond();
    // cudaEventElapsedTime also refuses events that were never recorded or
    // are still pending; record both ends and wait, so that the flag is the
    // only reason left for a refusal.
    grading::breadcrumb("recording the dependency events");
    CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));
    for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));
    grading::checkLaunch("recording the dependency events");

    for (int j = 0; j < kBranches; ++j) {
        const std::string n = std::to_string(j);
        float ms = 0.0f;
        const cudaError_t elapsed = cudaEventElapsedTime(&ms, d.fork, d.branchDone[j]);
        const cudaError_t cleared = cudaGetLastError();  // takes the error out of the slot
        const cudaError_t left = cudaGetLastError();     // what the next check would see
        result.putText("events_" + n, "fork, branchDone[" + n + "]");
        result.putText("elapsed_error_" + n, cudaGetErrorName(elapsed));
        result.putText("slot_cleared_" + n, cudaGetErrorName(cleared));
        result.putText("slot_after_clear_" + n, cudaGetErrorName(left));
    }
    result.putInt("probes", kBranches);
    rig.release();
}

void timingCommand(const RunnerArgs& args, Record& result) {
    const int warmups = args.integer("warmups", day52::kWarmupRuns);
    const int runs = args.integer("runs", day52::kTimedRuns);
    if (warmups < 0 || runs < 1 || runs > 1000) throw InputError("--warmups wants >= 0 and --runs 1..1000");
    Rig rig;
    rig.poisonOutputs();
    grading::breadcrumb("timing enqueueDiamond");
    const grading::TimingStats diamond =
        grading::timeRuns([&] { day52::enqueueDiamond(rig.diamond()); }, "enqueueDiamond (timing)", warmups, runs);
    rig.checkGuards("timing enqueueDiamond");
    result.putFloats("out", rig.out());
    grading::breadcrumb("timing enqueueSerial");
    const grading::TimingStats serial =
        grading::timeRuns([&] { day52::enqueueSerial(rig.diamond()); }, "enqueueSerial (timing)", warmups, runs);
    rig.checkGuards("timing enqueueSerial");
    result.putFloats("diamond_ms", diamond.samplesMs);
    result.putFloats("serial_ms", serial.samplesMs);
    rig.release();
}

void brokenCommand(const RunnerArgs&, Record& result) {
    Rig rig;
    ScopedEvent forkTooEarly(cudaEventDisableTiming);
    // As in the course, the broken order runs on a warmed-up device: every
    // kernel's module is loaded, so the race is the events' doing alone.
    rig.run("enqueueSerial (warm-up before the broken order)", [&] { day52::enqueueSerial(rig.diamond()); });
    rig.zeroMid();
    rig.run("enqueueBroken (the course's broken order)",
            [&] { day52::enqueueBroken(rig.diamond(), forkTooEarly.get()); });
    result.putFloats("out", rig.out());
    rig.release();
}

}  // namespace

int main(int argc, char** argv) {
    return grading::runnerMain(argc, argv,
                               {{"diamond", diamondCommand},
                                {"serial", serialCommand},
                                {"stress", stressCommand},
                                {"no-timing", noTimingCommand},
                                {"timing", timingCommand},
                                {"broken", brokenCommand}});
}
