// The runner's checked allocation calls (harness/cuda/src/checked_calls.cpp),
// which a sealed student file's cudaMalloc family reaches: an allocation
// that would take the file's allocations past what a runner may hold is
// refused as it is asked, before CUDA is called, so these run on any
// machine. The bound here is 1 GiB (GRADING_RUNNER_GPU_MEMORY_GIB, set by
// the test's environment and read as the process starts). A refusal ends
// the process as a runner's contract violation does: exit status 5, the
// message on stderr.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>

#include "harness/protocol.h"

extern "C" {
cudaError_t grading_checked_cudaMalloc(void** ptr, size_t size);
cudaError_t grading_checked_cudaMallocManaged(void** ptr, size_t size, unsigned int flags);
cudaError_t grading_checked_cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream);
cudaError_t grading_checked_cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height);
cudaError_t grading_checked_cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent);
cudaError_t grading_checked_cudaFree(void* ptr);
}

namespace {

constexpr size_t kGiB = size_t{1} << 30;
const int kContractViolation = grading::protocol::kContractViolation.exitCode;

// The runner answers on fd 3; here that is nobody's.
void channelToNowhere() { dup2(open("/dev/null", O_WRONLY), 3); }

class CheckedAllocation : public ::testing::Test {
protected:
    void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(CheckedAllocation, AskingPastTheBoundIsRefusedBeforeCudaIsCalled) {
    EXPECT_EXIT(
        {
            channelToNowhere();
            void* p = nullptr;
            grading_checked_cudaMalloc(&p, 2 * kGiB);
        },
        ::testing::ExitedWithCode(kContractViolation),
        "the submission called cudaMalloc for 2\\.0 GiB: it would hold 2\\.0 GiB of device memory, more than the 1 "
        "GiB a runner may hold \\(GRADING_RUNNER_GPU_MEMORY_GIB\\)");
}

TEST_F(CheckedAllocation, EveryAllocatingCallIsBounded) {
    EXPECT_EXIT(
        {
            channelToNowhere();
            void* p = nullptr;
            grading_checked_cudaMallocManaged(&p, 3 * kGiB, cudaMemAttachGlobal);
        },
        ::testing::ExitedWithCode(kContractViolation), "the submission called cudaMallocManaged for 3\\.0 GiB");
    EXPECT_EXIT(
        {
            channelToNowhere();
            void* p = nullptr;
            grading_checked_cudaMallocAsync(&p, 3 * kGiB, cudaStreamLegacy);
        },
        ::testing::ExitedWithCode(kContractViolation), "the submission called cudaMallocAsync for 3\\.0 GiB");
    EXPECT_EXIT(
        {
            channelToNowhere();
            void* p = nullptr;
            size_t pitch = 0;
            grading_checked_cudaMallocPitch(&p, &pitch, 64 * 1024, 64 * 1024);  // 4 GiB of rows
        },
        ::testing::ExitedWithCode(kContractViolation), "the submission called cudaMallocPitch for 4\\.0 GiB");
    EXPECT_EXIT(
        {
            channelToNowhere();
            cudaPitchedPtr pitched{};
            grading_checked_cudaMalloc3D(&pitched, make_cudaExtent(size_t{1} << 40, size_t{1} << 40, 2));
        },
        ::testing::ExitedWithCode(kContractViolation), "the submission called cudaMalloc3D for [0-9.e+]+ GiB")
        << "a size past 64 bits is refused, not wrapped to a small one";
}

TEST_F(CheckedAllocation, AnAllocationWithinTheBoundGoesToCuda) {
    void* p = nullptr;
    // On a GPU it is made; elsewhere CUDA says why not: either way it was asked, not refused.
    const cudaError_t err = grading_checked_cudaMalloc(&p, 256u << 20);
    if (err == cudaSuccess) EXPECT_EQ(grading_checked_cudaFree(p), cudaSuccess);
    SUCCEED() << cudaGetErrorName(err);
}

}  // namespace
