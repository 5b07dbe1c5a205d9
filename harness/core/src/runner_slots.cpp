// The GPU slots a runner call takes (gpu_slots.h): which GPU, how many
// slots, the process's ExclusiveGpuScope, and a session call's slots as its
// runner asks for the GPU and lends it.
#include "runner_client_internal.h"

#include "harness/protocol.h"

namespace grading {
namespace detail {
namespace {

// The process's ExclusiveGpuScope: its slots, and how deeply scopes nest.
struct ExclusiveScope {
    std::unique_ptr<GpuSlot> slots;
    int depth = 0;
};
ExclusiveScope& exclusiveScope() {
    static ExclusiveScope held;
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
    if (call.exclusiveGpu) return GpuUse::Exclusive;
    return call.subcommand == protocol::Probe::kName ? GpuUse::Startup : GpuUse::Shared;
}

std::unique_ptr<GpuSlot> takeSlot(GpuUse use) {
    const bool inScope = exclusiveScope().depth > 0;
    if (inScope && exclusiveScope().slots) return nullptr;
    const auto start = Clock::now();
    auto slot = std::make_unique<GpuSlot>(gpuOf(), inScope ? GpuUse::Exclusive : use);
    totals().slotWaitSeconds += std::chrono::duration<double>(Clock::now() - start).count();
    if (!inScope) return slot;
    exclusiveScope().slots = std::move(slot);
    return nullptr;
}

}  // namespace detail

std::unique_ptr<TimedTurn> takeTimedTurn() { return std::make_unique<TimedTurn>(detail::gpuOf()); }

namespace detail {

bool holdsGpuExclusively(const RunnerCall& call) { return call.exclusiveGpu || exclusiveScope().depth > 0; }

void countCall(double seconds, double exclusiveSeconds) {
    ++totals().calls;
    totals().callSeconds += seconds;
    totals().exclusiveCallSeconds += exclusiveSeconds;
}

CallGpu::CallGpu(const RunnerCall& call)
    : measures_(call.exclusiveGpu),
      inScope_(exclusiveScope().depth > 0),
      lends_(!inScope_ && (measures_ || gpuUseOf(call) == GpuUse::Shared)),
      slot_(takeSlot(measures_ ? GpuUse::Shared : gpuUseOf(call))) {
    if (inScope_) exclusiveSince_ = Clock::now();
}

std::string CallGpu::ask(const std::string& use) {
    if (use == protocol::kGpuLend) return lend();
    const bool exclusive = use == protocol::kGpuExclusive;
    const std::string asked = "it asked for the GPU \"" + use.substr(0, 40) + "\"";
    if (!measures_) return asked + " in a call that measures nothing";
    if ((!exclusive && use != protocol::kGpuShared) || exclusive == measuring_) {
        return asked + (measuring_ ? " while it held it exclusively" : " while it shared it");
    }
    // Each request drains the GPU for everyone; a call measures in one
    // section (two requests), a few at most.
    if (++requests_ > kMaxRequests) {
        return "it asked for the GPU exclusively or back more than " + std::to_string(kMaxRequests) +
               " times in one call";
    }
    measuring_ = exclusive;
    if (inScope_) return {};
    if (exclusiveSince_) exclusive_ += Clock::now() - *exclusiveSince_;
    exclusiveSince_.reset();
    const Clock::time_point got = takeAgain(exclusive ? GpuUse::Exclusive : GpuUse::Shared);
    if (exclusive) exclusiveSince_ = got;
    return {};
}

double CallGpu::exclusiveSeconds(Clock::time_point end) const {
    const Clock::duration open = exclusiveSince_ ? end - *exclusiveSince_ : Clock::duration{};
    return std::chrono::duration<double>(exclusive_ + open).count();
}

// The runner has no GPU work under way: a timed call queued for the GPU
// gets this slot now, and the call goes on once it has measured, instead
// of the timed call waiting for the whole of this one.
std::string CallGpu::lend() {
    if (!lends_) return "it lent the GPU in a call that was not asked to";
    if (measuring_) return "it lent the GPU while it held it exclusively";
    if (!slot_ || !slot_->exclusiveWanted()) return {};
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

// The slots are taken by the scope's first call that asks a runner, so a
// scope whose calls are all read back (answerShared) waits for no one.
ExclusiveGpuScope::ExclusiveGpuScope() { ++detail::exclusiveScope().depth; }

ExclusiveGpuScope::~ExclusiveGpuScope() {
    if (--detail::exclusiveScope().depth == 0) detail::exclusiveScope().slots.reset();
}

}  // namespace grading
