#pragma once
// A bound on how many runners share one GPU, across every grading process on
// the machine (ctest -j, several students at once): a runner call takes one
// of GRADING_GPU_SLOTS slots of its GPU (default 8; 0 turns the bound off)
// before it starts, and a timed call takes them all, so nothing else runs on
// that GPU while it measures (in a runner session, only around what it
// measures: protocol.h's kTimedSectionsField). A timed call queues for the
// GPU first, and while one is queued no new call takes a slot: it waits only
// for the calls already running. The slots are flock()ed files under
// $TMPDIR/grading-gpu-slots; the kernel drops a lock when its holder dies, so
// a killed test never leaves a slot taken. A caller waiting out a timed
// call blocks on its locks and goes on as they drop; one waiting for a slot
// that other shared calls hold tries again every 20 ms. Waiting for a slot is
// not counted against a runner's time limit; a wait that lasts
// GRADING_SLOT_WAIT_NOTICE seconds (default 300; 0: never) says so on
// stderr, and again each as long after, naming the processes that hold the
// GPU's lock files (from /proc/locks), so a test that never gets the GPU
// names who holds it.
//
// Starting a runner (its process, cuInit, and the CUDA context its probe
// makes: about 0.33 s alone on the H200, 1-2 s beside the suite's 16 test
// processes) runs no kernel of its own, so it takes no slot; but it waits
// while a timed call holds the GPU exclusively, and a timed call waits for
// the starts under way. Starts that waited for nothing doubled a timed
// overlap measurement in a suite (8 starts in flight), and the instructor's
// code failed its gate (docs/performance.md).
//
// GRADING_SLOT_TRACE=<file>: each slot, once given back, appends a line there
// (GPU, use, when it was asked for, got and given back in epoch microseconds,
// process id; nothing while the bound is off); lab/scripts/slot-timeline.sh says from
// them how long the GPU was held exclusively, drained for that, shared, or had no
// call at all.
#include <cstdint>
#include <string>
#include <vector>

namespace grading {

enum class GpuUse {
    Shared,     // one slot: kernels beside other runners' kernels
    Exclusive,  // every slot: a timed call
    Startup,    // no slot, only no timed call: a runner's process and context starting
};

class GpuSlot {
public:
    // `gpu` names the device the call will use (see gpuForCall).
    GpuSlot(const std::string& gpu, GpuUse use);
    ~GpuSlot();
    GpuSlot(const GpuSlot&) = delete;
    GpuSlot& operator=(const GpuSlot&) = delete;

    // Slots held: 1 shared, all of them exclusive, none for a start.
    int held() const { return slots_; }

    // Whether a caller is queued to hold this GPU exclusively, gathering its slots
    // (one of them perhaps this one): a shared holder can lend its slot.
    bool exclusiveWanted() const;

private:
    void take(int slots);  // of `slots` per GPU, as use_ says

    std::vector<int> fds_;  // the locked files: slots, and the start lock
    int slots_ = 0;
    std::string gpu_;  // as the slot files name it
    GpuUse use_;
    int64_t askedUs_ = 0;
    int64_t gotUs_ = 0;
    bool bounded_ = false;  // slots on (GRADING_GPU_SLOTS not 0): only then traced
};

// GRADING_GPU_SLOTS, or 8.
int gpuSlotsPerDevice();

// A class's day tests take turns at their GPU's exclusive work: each holds
// one of GRADING_TIMED_TURNS turns of its GPU (0 or unset: no bound) from
// its first case that may hold the GPU exclusively (a timed gate's, a deep
// search) to its first that shares it again, or its end. So a class's
// student-day keeps one runner from its shared cases to its timed ones,
// while only a few of the class's tests are timing at once: many more, and
// the host work of every timed test in flight slowed the calls that hold
// the GPU; fewer, and it drained more often for them (grade_class.sh,
// --timed-turns; docs/performance.md). A turn is a flock()ed file like a
// slot, dropped when its holder dies; a waiter tries again every 20 ms.
// Traced as use "turn" in GRADING_SLOT_TRACE.
class TimedTurn {
public:
    explicit TimedTurn(const std::string& gpu);
    ~TimedTurn();
    TimedTurn(const TimedTurn&) = delete;
    TimedTurn& operator=(const TimedTurn&) = delete;

    bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
    std::string gpu_;
    int64_t askedUs_ = 0;
    int64_t gotUs_ = 0;
};

// GRADING_TIMED_TURNS, or 0 (no bound).
int timedTurnsPerDevice();

}  // namespace grading
