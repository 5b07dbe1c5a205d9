// The day 52 runner: the course's events_forkjoin.cu as subcommands
// (protocol.h), linked with the course's setup and kernels and one
// enqueueDiamond (the solution, the submission, the stub or a planted bug).
// It reports what the kernels produced and the times; the grader decides.
//
// What orders what. The diamond's five streams are non-blocking
// (course/setup.cu), so the legacy default stream, where every copy and fill
// of the runner goes (allocation guards, the input upload, poison, zeroing
// d_mid, the hold table, the launch log), never orders them. The runner
// waits for the whole device before each diamond, so all of its own writes
// are done before the first launch. It then reads d_out as soon as s[0]
// alone is done, as the contract promises a caller may (forkjoin.h): a join
// left on another stream is read too early, and work still queued on a
// branch stream then is reported. Only then does it wait for the whole
// device and check the guards. Between those points only the submission's
// events order its work. The timed runs, which must not wait on the host,
// are bracketed with the runner's own events on the diamond's streams
// (fenceIn, fenceOut below).
#include <array>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "forkjoin.h"
#include "grading_hooks.h"
#include "harness/cuda_check.h"
#include "harness/event_timer.h"
#include "harness/guarded_buffer.h"
#include "harness/runner_main.h"
#include "harness/splitmix64.h"
#include "harness/sum_of_squares.h"
#include "harness/timed_run_check.h"
#include "inputs.h"
#include "protocol.h"

namespace {

using day52::kBranches;
using day52::kElems;
using grading::GuardedBuffer;
using grading::InputError;
namespace proto = day52::protocol;

static_assert(proto::kLastBranch + 1 == kBranches, "the protocol's branch indices are the diamond's");

// The streams and events of one diamond, made by the course's setup and
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

// One event the runner itself owns.
class ScopedEvent {
public:
    ScopedEvent() { CUDA_TRY(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming)); }
    ~ScopedEvent() { cudaEventDestroy(e_); }
    ScopedEvent(const ScopedEvent&) = delete;
    ScopedEvent& operator=(const ScopedEvent&) = delete;
    cudaEvent_t get() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

// Everything queued so far, on every stream, is done (errors named).
void drain(const std::string& where) { grading::checkLaunch(where); }

// One fresh diamond: guarded buffers, d_in holding one input, and new
// streams and events; all released on every way out.
class Rig {
public:
    explicit Rig(const std::vector<float>& input)
        : in_("d_in", kElems), mid_("d_mid", kElems), out_("d_out", kElems) {
        if (input.size() != kElems) throw InputError("an input wants " + std::to_string(kElems) + " values");
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
        setInput(input);
    }
    Rig(const Rig&) = delete;
    Rig& operator=(const Rig&) = delete;

    const day52::Diamond& diamond() const { return handles_->d; }

    // A new input in the same buffers (the timed runs' own).
    void setInput(const std::vector<float>& input) {
        in_.upload(input);
        input_.keep(in_, kElems);
    }
    // Nothing left over from an earlier run can look like a right answer.
    void poisonOutputs() {
        mid_.poison();
        for (const auto& b : branch_) b->poison();
        out_.poison();
    }
    void zeroMid() { CUDA_TRY(cudaMemset(mid_.data(), 0, kElems * sizeof(float))); }

    // What a diamond run gives back: d_out as it stood once s[0] was done,
    // and the streams that still had work then (bit k for s[k]).
    struct Finished {
        std::vector<float> out;
        int32_t leftRunning = 0;
    };
    // Queues a diamond with `enqueue` after a device-wide wait, reads d_out
    // once s[0] alone is done (see the top of this file), then waits for the
    // whole device and checks errors, guards and the input.
    Finished runUntilStream0(const std::string& where, const std::function<void()>& enqueue) {
        const day52::Diamond& d = handles_->d;
        drain("preparing " + where);
        grading::breadcrumb(where);
        enqueue();
        if (cudaStreamSynchronize(d.s[0]) != cudaSuccess) drain(where);  // names the error
        Finished done;
        done.out = out_.download();  // the legacy default stream: it waits for none of the diamond's streams
        for (int k = 1; k <= kBranches; ++k) {
            if (cudaStreamQuery(d.s[k]) == cudaErrorNotReady) done.leftRunning |= 1 << k;
        }
        drain(where);
        checkAfter(where);
        return done;
    }
    // Queues work with `enqueue` between two device-wide waits, then checks
    // errors, guards and the input.
    void run(const std::string& where, const std::function<void()>& enqueue) {
        drain("preparing " + where);
        grading::breadcrumb(where);
        enqueue();
        drain(where);
        checkAfter(where);
    }
    // The guard words alone (d_in is the runner's to rewrite, as clocked runs do).
    void checkGuards(const std::string& where) const { guards_.check(where); }
    // The guard words and d_in, after `where` has drained.
    void checkAfter(const std::string& where) {
        guards_.check(where);
        input_.check(where);
    }

    std::vector<float> out() const { return out_.download(); }
    float* inData() const { return in_.data(); }

    // The launch log's entries, each output pointer named as a kTarget*.
    int32_t target(const float* p) const {
        const day52::Diamond& d = handles_->d;
        if (p == d.d_mid) return proto::kTargetMid;
        for (int j = 0; j < kBranches; ++j) {
            if (p == d.d_branch[j]) return proto::kTargetBranch0 + j;
        }
        return p == d.d_out ? proto::kTargetOut : proto::kTargetOther;
    }

    void release() { handles_->release(); }

private:
    // Declared before the handles, so the streams and events go first.
    GuardedBuffer<float> in_;
    GuardedBuffer<float> mid_;
    std::array<std::unique_ptr<GuardedBuffer<float>>, kBranches> branch_;
    GuardedBuffer<float> out_;
    grading::GuardSet guards_;
    grading::InputWatch input_;  // d_in as it was given, on the device
    std::unique_ptr<DiamondHandles> handles_;
};

// Clears the grind hold on every way out of the stress runs.
class HoldScope {
public:
    HoldScope() = default;
    ~HoldScope() {
        try {
            day52::clearGrindHold();
        } catch (...) {
            // Only the process's own later launches could notice, and it is ending.
        }
    }
    HoldScope(const HoldScope&) = delete;
    HoldScope& operator=(const HoldScope&) = delete;
};

// Loads every kernel before anything is graded: a kernel's first launch may
// load its module, and loading may wait for the kernels already running,
// which would order a diamond by accident.
void warmUp(const std::vector<float>& input) {
    Rig rig(input);
    rig.run("enqueueSerial (warm-up: every kernel loaded)", [&] { day52::enqueueSerial(rig.diamond()); });
    rig.release();
}

// diamond and serial: one fresh diamond per key, its output and launch log.
proto::RunsResult runs(const proto::RunsRequest& req, const char* what,
                       void (*enqueue)(const day52::Diamond&)) {
    proto::RunsResult result;
    result.out.reserve(req.inputKeys.size() * kElems);
    // Each run's diamond is made while the last one still stands, so no two
    // runs share a buffer, a stream or an event: a diamond replayed from an
    // earlier run (a cached CUDA graph, say) writes that run's buffers.
    std::unique_ptr<Rig> previous;
    for (size_t r = 0; r < req.inputKeys.size(); ++r) {
        grading::lendGpuToMeasurements();
        auto rig = std::make_unique<Rig>(day52::diamondInput(req.inputKeys[r]));
        rig->poisonOutputs();
        day52::clearLaunchLog();
        const Rig::Finished done =
            rig->runUntilStream0(std::string(what) + " (run " + std::to_string(r) + ")", [&] { enqueue(rig->diamond()); });
        result.out.insert(result.out.end(), done.out.begin(), done.out.end());
        result.leftRunning.push_back(done.leftRunning);
        const day52::LaunchLog log = day52::readLaunchLog();
        for (uint32_t k = 0; k < log.count && k < static_cast<uint32_t>(day52::kMaxLoggedLaunches); ++k) {
            result.launchRun.push_back(static_cast<int32_t>(r));
            result.launchKernel.push_back(log.at[k].kernel);
            result.launchTarget.push_back(rig->target(log.at[k].out));
            result.launchBlocks.push_back(static_cast<int64_t>(log.at[k].blocks));
            result.launchThreads.push_back(static_cast<int64_t>(log.at[k].threadsPerBlock));
            result.launchElements.push_back(static_cast<int64_t>(log.at[k].elements));
        }
        if (previous) previous->release();
        previous = std::move(rig);
    }
    previous->release();
    return result;
}

proto::RunsResult diamond(const proto::RunsRequest& req) { return runs(req, "enqueueDiamond", day52::enqueueDiamond); }

proto::RunsResult serial(const proto::RunsRequest& req) { return runs(req, "enqueueSerial", day52::enqueueSerial); }

proto::StressResult stress(const proto::StressRequest& req) {
    if (req.heldBranch.size() != req.inputKeys.size()) throw InputError("held_branch wants one entry per input key");
    warmUp(day52::diamondInput(req.inputKeys.front()));
    HoldScope holdScope;
    proto::StressResult result;
    result.out.reserve(req.inputKeys.size() * kElems);
    std::unique_ptr<Rig> previous;  // as in runs(): no two runs share a buffer
    for (size_t r = 0; r < req.inputKeys.size(); ++r) {
        grading::lendGpuToMeasurements();
        auto current = std::make_unique<Rig>(day52::diamondInput(req.inputKeys[r]));
        Rig& rig = *current;
        rig.poisonOutputs();
        rig.zeroMid();
        const day52::Diamond& d = rig.diamond();
        day52::GrindHold hold{};
        hold.out[0] = d.d_mid;
        hold.ns[0] = static_cast<unsigned long long>(req.upstreamHoldMs * 1e6);
        hold.out[1] = d.d_branch[req.heldBranch[r]];
        hold.ns[1] = static_cast<unsigned long long>(req.branchHoldMs * 1e6);
        day52::setGrindHold(hold);

        const std::string where =
            "enqueueDiamond (stress run " + std::to_string(r) + ", branch " + std::to_string(req.heldBranch[r]) + " held)";
        const auto start = std::chrono::steady_clock::now();
        const Rig::Finished done = rig.runUntilStream0(where, [&] { day52::enqueueDiamond(d); });
        result.runMs.push_back(std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count());
        // The submission links the hooks too: a run it let go unheld is not a stress run.
        const day52::GrindHold after = day52::readGrindHold();
        if (std::memcmp(&after, &hold, sizeof hold) != 0) {
            throw grading::ContractViolation(where + " changed the grading hold table (grading_hooks.h)");
        }
        result.out.insert(result.out.end(), done.out.begin(), done.out.end());
        result.leftRunning.push_back(done.leftRunning);
        if (previous) previous->release();
        previous = std::move(current);
    }
    previous->release();
    return result;
}

proto::NoTimingResult noTiming(const grading::protocol::Empty&) {
    DiamondHandles handles;
    const day52::Diamond& d = handles.d;
    // cudaEventElapsedTime also refuses events that were never recorded or
    // are still pending; record both ends and wait, so that the flag is the
    // only reason left for a refusal.
    grading::breadcrumb("recording the dependency events");
    CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));
    for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));
    drain("recording the dependency events");

    proto::NoTimingResult result;
    for (int j = 0; j < kBranches; ++j) {
        float ms = 0.0f;
        const cudaError_t elapsed = cudaEventElapsedTime(&ms, d.fork, d.branchDone[j]);
        const cudaError_t cleared = cudaGetLastError();  // takes the error out of the slot
        const cudaError_t left = cudaGetLastError();     // what the next check would see
        const char* comma = j == 0 ? "" : ",";
        result.elapsedErrors += comma + std::string(cudaGetErrorName(elapsed));
        result.slotCleared += comma + std::string(cudaGetErrorName(cleared));
        result.slotAfterClear += comma + std::string(cudaGetErrorName(left));
    }
    handles.release();
    return result;
}

// The runner's own bracket around one timed run: fenceIn makes the branch
// streams wait for s[0]'s point after the start event, fenceOut makes s[0]
// wait for every branch stream's end before the stop event. The events
// then time the whole run on all five streams, whatever the submission's
// own events say, and no run overlaps the next.
struct Fences {
    ScopedEvent in;
    std::array<ScopedEvent, kBranches> tail;

    void fenceIn(const day52::Diamond& d) const {
        CUDA_TRY(cudaEventRecord(in.get(), d.s[0]));
        for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[1 + j], in.get(), 0));
    }
    void fenceOut(const day52::Diamond& d) const {
        for (int j = 0; j < kBranches; ++j) {
            CUDA_TRY(cudaEventRecord(tail[j].get(), d.s[1 + j]));
            CUDA_TRY(cudaStreamWaitEvent(d.s[0], tail[j].get(), 0));
        }
    }
};

// A diamond's buffers of one timed run, with the rig's streams and events.
class RunBuffers {
public:
    explicit RunBuffers(const day52::Diamond& streams)
        : in_("a timed run's d_in", kElems), mid_("a timed run's d_mid", kElems), out_("a timed run's d_out", kElems) {
        d_ = streams;
        d_.d_in = in_.data();
        d_.d_mid = mid_.data();
        for (int j = 0; j < kBranches; ++j) {
            branch_[j] = std::make_unique<GuardedBuffer<float>>("a timed run's d_branch[" + std::to_string(j) + "]", kElems);
            d_.d_branch[j] = branch_[j]->data();
        }
        d_.d_out = out_.data();
        mid_.poison();
        for (const auto& b : branch_) b->poison();
        out_.poison();
    }
    const day52::Diamond& diamond() const { return d_; }
    float* in() const { return in_.data(); }
    const float* out() const { return out_.data(); }
    void guard(grading::GuardSet& guards) const {
        guards.add(in_);
        guards.add(mid_);
        for (const auto& b : branch_) guards.add(*b);
        guards.add(out_);
    }

private:
    GuardedBuffer<float> in_, mid_;
    std::array<std::unique_ptr<GuardedBuffer<float>>, kBranches> branch_;
    GuardedBuffer<float> out_;
    day52::Diamond d_{};
};

// Run r's keyed input, as inputs.h's palette values: multiples of 2^-14 in [-512, 512).
__global__ void keyedInput(float* in, size_t n, uint64_t key, int run) {
    const uint64_t runKey = grading::splitMix64At(key, static_cast<uint64_t>(run));
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
        const uint64_t z = grading::splitMix64At(runKey, i);
        in[i] = static_cast<float>(static_cast<int64_t>(z >> 40) - (int64_t{1} << 23)) * 0x1.0p-14f;
    }
}

// `warmups` runs of `enqueue` on the warm-up input in the rig's buffers, then
// `runs` timed runs, each in buffers of its own with the rig's streams: run
// 0 on the timed input (its output goes to `out`, graded like any other),
// every later run on an input made on the device from timedKey and the run,
// none derived from another's, so no answer kept from one run serves the
// next. After its stop event, on s[0] and outside what is timed, a later
// run's d_out is compared with the course's enqueueSerial of the same input
// (the same kernels: bit for bit) and its d_in with that input.
struct TimedShape {
    grading::TimingStats stats;
    std::vector<float> out;
    std::vector<int64_t> runFirstDifference;
};

TimedShape timeShape(Rig& rig, const Fences& f, const std::string& what, void (*enqueue)(const day52::Diamond&),
                     const std::vector<float>& warmupInput, const std::vector<float>& timedInput, uint64_t timedKey,
                     int warmups, int runs) {
    const day52::Diamond& streams = rig.diamond();
    const cudaStream_t s0 = streams.s[0];
    const auto fenced = [&](const day52::Diamond& d) {
        f.fenceIn(d);
        enqueue(d);
        f.fenceOut(d);
    };
    rig.setInput(warmupInput);
    rig.run(what + " (warm-up)", [&] {
        for (int w = 0; w < warmups; ++w) fenced(streams);
    });
    std::vector<std::unique_ptr<RunBuffers>> timed;
    grading::GuardSet guards;
    for (int r = 0; r < runs; ++r) {
        timed.push_back(std::make_unique<RunBuffers>(streams));
        timed.back()->guard(guards);
        if (r == 0) {
            CUDA_TRY(cudaMemcpy(timed.back()->in(), timedInput.data(), kElems * sizeof(float), cudaMemcpyHostToDevice));
        } else {
            keyedInput<<<264, 256, 0, s0>>>(timed.back()->in(), kElems, timedKey, r);
        }
    }
    RunBuffers answer(streams);  // the course's serial run of a timed run's input
    answer.guard(guards);
    GuardedBuffer<float> runZeroInput("timed run 0's input as given", kElems);
    runZeroInput.upload(timedInput);
    GuardedBuffer<float> runZeroOut("timed run 0's d_out", kElems);
    guards.add(runZeroInput);
    guards.add(runZeroOut);
    grading::RunAnswerCheck answers(runs);
    grading::RunAnswerCheck inputs(runs);
    int current = 0;
    grading::TimedRunHooks hooks;
    hooks.before = [&](int r) { current = r; };
    hooks.after = [&](int r) {
        const RunBuffers& run = *timed[r];
        if (r == 0) {
            CUDA_TRY(cudaMemcpyAsync(runZeroOut.data(), run.out(), kElems * sizeof(float), cudaMemcpyDeviceToDevice, s0));
            inputs.compare(0, run.diamond().d_in, runZeroInput.data(), kElems, 0.0f, s0);
            return;
        }
        keyedInput<<<264, 256, 0, s0>>>(answer.in(), kElems, timedKey, r);
        inputs.compare(r, run.diamond().d_in, answer.diamond().d_in, kElems, 0.0f, s0);
        day52::enqueueSerial(answer.diamond());
        answers.compare(r, run.out(), answer.out(), kElems, 0.0f, s0);
    };
    drain("preparing the timed runs of " + what);
    grading::breadcrumb("timing " + what);
    TimedShape t;
    t.stats = grading::timeRuns([&] { fenced(timed[current]->diamond()); }, what + " (timed)", 0, runs, s0, hooks);
    drain("checking the timed runs of " + what);
    rig.checkAfter("timing " + what);
    guards.check("timing " + what);
    const std::vector<int64_t> written = inputs.firstDifferences();
    for (int r = 0; r < runs; ++r) {
        if (written[r] < 0) continue;
        throw grading::ContractViolation("timing " + what + ", timed run " + std::to_string(r) +
                                         ", wrote to its input d_in at index " + std::to_string(written[r]));
    }
    t.out = runZeroOut.download();
    t.runFirstDifference = answers.firstDifferences();
    return t;
}

// One untimed run of `enqueue` with its kernels watched (grading_hooks.h):
// each watched buffer's first start, then each one's last end, ns.
std::vector<uint64_t> timelineOf(Rig& rig, const Fences& f, const std::string& what,
                                 void (*enqueue)(const day52::Diamond&)) {
    const day52::Diamond& d = rig.diamond();
    day52::TimedOutputs watched{};
    watched.out[0] = d.d_mid;
    for (int j = 0; j < kBranches; ++j) watched.out[1 + j] = d.d_branch[j];
    watched.out[1 + kBranches] = d.d_out;
    day52::watchTimeline(watched);
    rig.run(what + " (timeline)", [&] {
        f.fenceIn(d);
        enqueue(d);
        f.fenceOut(d);
    });
    const day52::Timeline t = day52::readTimeline();
    day52::stopTimeline();
    std::vector<uint64_t> ns(std::begin(t.startNs), std::end(t.startNs));
    ns.insert(ns.end(), std::begin(t.endNs), std::end(t.endNs));
    return ns;
}

proto::TimingResult timing(const proto::TimingRequest& req) {
    const bool diamondShape = req.shape == proto::kShapeDiamond;  // else serial (the request's limits)
    const std::string what = proto::enqueueOf(req.shape);
    void (*const enqueue)(const day52::Diamond&) = diamondShape ? day52::enqueueDiamond : day52::enqueueSerial;
    const std::vector<float> warmupInput = day52::diamondInput(req.warmupKey);
    const std::vector<float> timedInput = day52::diamondInput(req.timedKey);
    Rig rig(warmupInput);
    Fences fences;
    proto::TimingResult result;
    {
        // From the first warm-up (which ramps the clocks) to the last timed
        // run, under one wait for the GPU exclusively.
        const grading::TimedSection measuring;
        TimedShape t =
            timeShape(rig, fences, what, enqueue, warmupInput, timedInput, req.timedKey, req.warmups, req.runs);
        result.ms = std::move(t.stats.samplesMs);
        result.out = std::move(t.out);
        result.runFirstDifference = std::move(t.runFirstDifference);
    }
    result.timelineNs = timelineOf(rig, fences, what, enqueue);
    rig.release();
    return result;
}

// ---- the clocked runs (52.overlap's measure)

proto::ClockedResult clocked(const proto::ClockedRequest& req) {
    const bool diamondShape = req.shape == proto::kShapeDiamond;  // else serial (the request's limits)
    const std::string what = std::string(proto::enqueueOf(req.shape)) + ", " +
                             std::to_string(req.runs) + " clocked runs";
    void (*const enqueue)(const day52::Diamond&) = diamondShape ? day52::enqueueDiamond : day52::enqueueSerial;
    Rig rig(std::vector<float>(kElems, 0.0f));
    Fences fences;
    GuardedBuffer<double> proofs("proofs", static_cast<size_t>(req.runs));
    CUDA_TRY(cudaMemset(proofs.data(), 0, proofs.count() * sizeof(double)));
    const day52::Diamond& d = rig.diamond();
    drain("preparing " + what);
    grading::breadcrumb(what);
    {
        // Everything the grader's clock should see, on the GPU alone. On
        // s[0]: the input before fenceIn (every stream's work of the run
        // comes after it), the proof after fenceOut (after every stream's).
        const grading::TimedSection measuring;
        for (int r = 0; r < req.runs; ++r) {
            keyedInput<<<264, 256, 0, d.s[0]>>>(rig.inData(), kElems, req.key, r);
            fences.fenceIn(d);
            enqueue(d);
            fences.fenceOut(d);
            grading::enqueueSumOfSquares(d.d_out, kElems, proofs.data() + r, nullptr, d.s[0]);
        }
        drain(what);
    }
    rig.checkGuards(what);
    proto::ClockedResult result;
    result.proofs = proofs.download();
    rig.release();
    return result;
}

proto::BrokenResult broken(const proto::BrokenRequest& req) {
    const std::vector<float> input = day52::diamondInput(req.inputKey);
    // As in the course, the broken order runs on a warmed-up device: every
    // kernel's module is loaded, so the race is the events' doing alone.
    warmUp(input);
    Rig rig(input);
    const ScopedEvent forkTooEarly;
    rig.poisonOutputs();
    rig.zeroMid();
    rig.run("enqueueBroken (the course's broken order)", [&] { day52::enqueueBroken(rig.diamond(), forkTooEarly.get()); });
    proto::BrokenResult result;
    result.out = rig.out();
    rig.release();
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    grading::runnerMain(argc, argv,
                        {grading::serve<proto::Diamond>(diamond), grading::serve<proto::Serial>(serial),
                         grading::serve<proto::Stress>(stress), grading::serve<proto::NoTiming>(noTiming),
                         grading::serve<proto::Timing>(timing), grading::serve<proto::Broken>(broken),
                         grading::serve<proto::Clocked>(clocked)});
}
