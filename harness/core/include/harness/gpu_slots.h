#pragma once
// A bound on how many runners share one GPU, across every grading process on
// the machine (ctest -j, several students at once): a runner call takes one
// of GRADING_GPU_SLOTS slots of its GPU (default 8; 0 turns the bound off)
// before it starts, and a timed call takes them all, so nothing else runs on
// that GPU while it measures. A timed call queues for the GPU first, and
// while one is queued no new call takes a slot: it waits only for the calls
// already running. The slots are flock()ed files under
// $TMPDIR/grading-gpu-slots; the kernel drops a lock when its holder dies, so
// a killed test never leaves a slot taken. Waiting for a slot is not counted
// against a runner's time limit.
//
// Starting a runner (its process, cuInit and its probe's device queries:
// about 0.33 s alone on the H200, a CUDA context 0.02 s more) is CPU and
// driver work that runs no kernel: it takes no slot and waits for nothing,
// not even a timed call. On the H200, four loops of processes starting
// beside a timed kernel (a 64 MiB write, 2000 runs) left its median at
// 22.6-23.6 us, against 23.5-23.8 us alone.
//
// GRADING_SLOT_TRACE=<file>: each slot, once given back, appends a line there
// (GPU, use, when it was asked for, got and given back in epoch microseconds,
// process id; nothing while the bound is off); .ci/slot-timeline.sh says from
// them how long the GPU was held alone, drained for that, shared, or had no
// call at all.
#include <cstdint>
#include <string>
#include <vector>

namespace grading {

enum class GpuUse {
    Shared,   // one slot: kernels beside other runners' kernels
    Alone,    // every slot: a timed call
    Startup,  // nothing: a runner's process and context starting (traced only)
};

class GpuSlot {
public:
    // `gpu` names the device the call will use (see gpuForCall).
    GpuSlot(const std::string& gpu, GpuUse use);
    ~GpuSlot();
    GpuSlot(const GpuSlot&) = delete;
    GpuSlot& operator=(const GpuSlot&) = delete;

    // Slots held: 1 shared, all of them alone, none for a start.
    int held() const { return slots_; }

private:
    void take(int slots);  // of `slots` per GPU, as use_ says

    std::vector<int> fds_;  // the locked slot files
    int slots_ = 0;
    std::string gpu_;  // as the slot files name it
    GpuUse use_;
    int64_t askedUs_ = 0;
    int64_t gotUs_ = 0;
    bool bounded_ = false;  // slots on (GRADING_GPU_SLOTS not 0): only then traced
};

// GRADING_GPU_SLOTS, or 8.
int gpuSlotsPerDevice();

}  // namespace grading
