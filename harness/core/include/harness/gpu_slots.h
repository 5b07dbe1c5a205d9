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
#include <string>
#include <vector>

namespace grading {

class GpuSlot {
public:
    // `gpu` names the device the call will use (see gpuForCall).
    GpuSlot(const std::string& gpu, bool exclusive);
    ~GpuSlot();
    GpuSlot(const GpuSlot&) = delete;
    GpuSlot& operator=(const GpuSlot&) = delete;

    int held() const { return static_cast<int>(fds_.size()); }

private:
    std::vector<int> fds_;
};

// GRADING_GPU_SLOTS, or 8.
int gpuSlotsPerDevice();

}  // namespace grading
