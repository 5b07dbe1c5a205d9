// The GPU slots a runner call takes (gpu_slots.h): which GPU, how many
// slots, the process's WholeGpuHold, and a session call's slots as its
// runner asks for the GPU and lends it.
#include "runner_client_internal.h"

#include "harness/protocol.h"

namespace grading {
namespace detail {
namespace {

// The process's WholeGpuHold: its slots, and how deeply holds nest.
struct HeldGpu {
    std::unique_ptr<GpuSlot> slots;
    int depth = 0;
};
HeldGpu& heldGpu() {
    static HeldGpu held;
    return held;
}

}  // namespace

// ctest with a resource spec gives each test its GPUs as
// CTEST_RESOURCE_GROUP_0_GPUS="id:1,slots:1"; the runner then sees only those.
std::string assignedGpus() {
    if (env("CTEST_RESOURCE_GROUP_COUNT").empty()) return {};
    std::string ids;
    for (const std::string& allocation : split(env("CTEST_RESOURCE_GROUP_0_GPUS"), ';')) {
        for (const std::string& field : split(allocation, ',')) {
            if (field.compare(0, 3, "id:") == 0) ids += (ids.empty() ? "" : ",") + field.substr(3);
        }
    }
    return ids;
}

std::string gpuOf() {
    const std::string gpus = assignedGpus();
    const std::string visible = gpus.empty() ? env("CUDA_VISIBLE_DEVICES") : gpus;
    return visible.empty() ? "0" : split(visible, ',').front();
}

GpuUse gpuUseOf(const RunnerCall& call) {
    if (call.exclusiveGpu) return GpuUse::Alone;
    return call.subcommand == protocol::Probe::kName ? GpuUse::Startup : GpuUse::Shared;
}

std::unique_ptr<GpuSlot> takeSlot(GpuUse use) {
    const bool inHold = heldGpu().depth > 0;
    if (inHold && heldGpu().slots) return nullptr;
    const auto start = Clock::now();
    auto slot = std::make_unique<GpuSlot>(gpuOf(), inHold ? GpuUse::Alone : use);
    totals().slotWaitSeconds += std::chrono::duration<double>(Clock::now() - start).count();
    if (!inHold) return slot;
    heldGpu().slots = std::move(slot);
    return nullptr;
}

bool holdsGpuAlone(const RunnerCall& call) { return call.exclusiveGpu || heldGpu().depth > 0; }

void countCall(double seconds, double aloneSeconds) {
    ++totals().calls;
    totals().callSeconds += seconds;
    totals().exclusiveCallSeconds += aloneSeconds;
}

CallGpu::CallGpu(const RunnerCall& call)
    : measures_(call.exclusiveGpu),
      inHold_(heldGpu().depth > 0),
      lends_(!inHold_ && (measures_ || gpuUseOf(call) == GpuUse::Shared)),
      slot_(takeSlot(measures_ ? GpuUse::Shared : gpuUseOf(call))) {
    if (inHold_) aloneSince_ = Clock::now();
}

std::string CallGpu::ask(const std::string& use) {
    if (use == protocol::kGpuLend) return lend();
    const bool alone = use == protocol::kGpuAlone;
    const std::string asked = "it asked for the GPU \"" + use.substr(0, 40) + "\"";
    if (!measures_) return asked + " in a call that measures nothing";
    if ((!alone && use != protocol::kGpuShared) || alone == measuring_) {
        return asked + (measuring_ ? " while it had it alone" : " while it shared it");
    }
    // Each request drains the GPU for everyone; a call measures in one
    // section (two requests), a few at most.
    if (++requests_ > kMaxRequests) {
        return "it asked for the GPU alone or back more than " + std::to_string(kMaxRequests) + " times in one call";
    }
    measuring_ = alone;
    if (inHold_) return {};
    if (aloneSince_) alone_ += Clock::now() - *aloneSince_;
    aloneSince_.reset();
    const Clock::time_point got = takeAgain(alone ? GpuUse::Alone : GpuUse::Shared);
    if (alone) aloneSince_ = got;
    return {};
}

double CallGpu::aloneSeconds(Clock::time_point end) const {
    return std::chrono::duration<double>(alone_ + (aloneSince_ ? end - *aloneSince_ : Clock::duration{})).count();
}

// The runner has no GPU work under way: a timed call queued for the GPU
// gets this slot now, and the call goes on once it has measured, instead
// of the timed call waiting for the whole of this one.
std::string CallGpu::lend() {
    if (!lends_) return "it lent the GPU in a call that was not asked to";
    if (measuring_) return "it lent the GPU while it had it alone";
    if (!slot_ || !slot_->aloneWanted()) return {};
    takeAgain(GpuUse::Shared);
    ++totals().slotsLent;
    return {};
}

// Gives the slot back and takes the GPU again as `use`, the wait counted
// as waited; returns when it had it.
Clock::time_point CallGpu::takeAgain(GpuUse use) {
    const auto start = Clock::now();
    slot_.reset();
    slot_ = takeSlot(use);
    const auto got = Clock::now();
    waited_ += got - start;
    return got;
}

}  // namespace detail

// The slots are taken by the hold's first call that asks a runner, so a
// hold whose calls are all read back (answerShared) waits for no one.
WholeGpuHold::WholeGpuHold() { ++detail::heldGpu().depth; }

WholeGpuHold::~WholeGpuHold() {
    if (--detail::heldGpu().depth == 0) detail::heldGpu().slots.reset();
}

}  // namespace grading
