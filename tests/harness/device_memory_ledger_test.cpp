// The ledger behind the runner's checked allocation calls: what a
// submission's allocations may hold at once, within the bound a runner may
// hold, freed memory counted free again.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/device_memory_ledger.h"
#include "harness/runner_client.h"
#include "scoped_env.h"

namespace grading {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kGiB = uint64_t{1} << 30;

// Stand-in addresses: the ledger only keys on them.
const void* at(uintptr_t address) { return reinterpret_cast<const void*>(address); }

TEST(DeviceMemoryLedger, AllocationsUpToTheBoundAreLetThrough) {
    DeviceMemoryLedger ledger(16 * kGiB);
    EXPECT_EQ(ledger.refusal(10 * kGiB), "");
    ledger.add(at(0x1000), 10 * kGiB);
    EXPECT_EQ(ledger.refusal(6 * kGiB), "") << "exactly the bound is allowed";
    ledger.add(at(0x2000), 6 * kGiB);
    EXPECT_EQ(ledger.held(), 16 * kGiB);
}

TEST(DeviceMemoryLedger, OnePastTheBoundIsRefusedNamingWhatItWouldHoldAndTheBound) {
    DeviceMemoryLedger ledger(16 * kGiB);
    ledger.add(at(0x1000), 10 * kGiB);
    EXPECT_THAT(ledger.refusal(6 * kGiB + 1), HasSubstr("it would hold 16.0 GiB of device memory, more than"));
    EXPECT_EQ(ledger.refusal(60 * kGiB),
              "it would hold 70.0 GiB of device memory, more than the 16 GiB a runner may hold "
              "(GRADING_RUNNER_GPU_MEMORY_GIB): memory it keeps is memory the runners graded beside it cannot have");
    EXPECT_THAT(ledger.refusal(UINT64_MAX), HasSubstr("more than the 16 GiB")) << "no overflow into a small sum";
}

TEST(DeviceMemoryLedger, FreedMemoryCountsFreeAgainSoManySmallCallsNeverAddUp) {
    DeviceMemoryLedger ledger(16 * kGiB);
    for (int call = 0; call < 100; ++call) {
        ASSERT_EQ(ledger.refusal(kGiB), "") << "call " << call;
        ledger.add(at(0x1000), kGiB);
        ledger.remove(at(0x1000));
    }
    EXPECT_EQ(ledger.held(), 0u);
}

TEST(DeviceMemoryLedger, FreeingWhatItNeverSawChangesNothing) {
    DeviceMemoryLedger ledger(16 * kGiB);
    ledger.add(at(0x1000), 3 * kGiB);
    ledger.remove(at(0x9000));   // the runner's own buffer
    ledger.remove(nullptr);      // cudaFree(nullptr)
    ledger.remove(at(0x1000));
    ledger.remove(at(0x1000));   // freed twice: no wrap below zero
    EXPECT_EQ(ledger.held(), 0u);
}

TEST(DeviceMemoryLedger, AnAddressTheDriverReusesIsCountedOnce) {
    DeviceMemoryLedger ledger(16 * kGiB);
    ledger.add(at(0x1000), 4 * kGiB);
    ledger.add(at(0x1000), 2 * kGiB);  // freed where the ledger could not see, then handed out again
    EXPECT_EQ(ledger.held(), 2 * kGiB);
}

TEST(DeviceMemoryLedger, ABoundOfZeroBoundsNothing) {
    DeviceMemoryLedger ledger(0);
    EXPECT_EQ(ledger.refusal(UINT64_MAX), "");
}

TEST(DeviceMemoryLedger, TheBoundIsTheSettingInGiBOr16WhenUnset) {
    EXPECT_EQ(deviceMemoryBound(nullptr), 16 * kGiB);
    EXPECT_EQ(deviceMemoryBound(""), 16 * kGiB);
    EXPECT_EQ(deviceMemoryBound("2.5"), 5 * kGiB / 2);
    EXPECT_EQ(deviceMemoryBound("0"), 0u);
    EXPECT_EQ(deviceMemoryBound("-3"), 0u);
}

TEST(DeviceMemoryLedger, TheBoundIsTheGradersSettingInGiBOr16) {
    {
        const ScopedEnv unset({{"GRADING_RUNNER_GPU_MEMORY_GIB", nullptr}});
        EXPECT_EQ(runnerMemoryBound(), 16 * kGiB);
    }
    {
        const ScopedEnv half({{"GRADING_RUNNER_GPU_MEMORY_GIB", "0.5"}});
        EXPECT_EQ(runnerMemoryBound(), kGiB / 2);
    }
    const ScopedEnv off({{"GRADING_RUNNER_GPU_MEMORY_GIB", "0"}});
    EXPECT_EQ(runnerMemoryBound(), 0u);
}

}  // namespace
}  // namespace grading
