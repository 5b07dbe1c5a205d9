// GPU slots bound how many runners share a GPU across processes: a slot is
// held until released, an exclusive holder waits for every slot, a runner
// starting takes none but waits for an exclusive holder, and a slot of a
// process that dies is free again.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/gpu_slots.h"
#include "harness/runner_client.h"

namespace grading {
namespace {

// Each test gets its own slot folder (TMPDIR) and two slots per GPU.
class GpuSlots : public ::testing::Test {
protected:
    void SetUp() override {
        setenv("TMPDIR", dir_.path().c_str(), 1);
        setenv("GRADING_GPU_SLOTS", "2", 1);
    }
    void TearDown() override {
        unsetenv("GRADING_GPU_SLOTS");
        if (old_ != nullptr) setenv("TMPDIR", old_, 1);
        else unsetenv("TMPDIR");
    }
    const char* old_ = std::getenv("TMPDIR");
    TempDir dir_;
};

// Whether a child process can take a slot of `gpu` within `seconds`.
bool childGetsSlot(const std::string& gpu, GpuUse use, double seconds) {
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(static_cast<unsigned>(seconds + 0.999));  // still waiting then: it did not get one
        const GpuSlot slot(gpu, use);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST_F(GpuSlots, TwoSlotsAdmitTwoHoldersAndNoThird) {
    const GpuSlot a("0", GpuUse::Shared);
    const GpuSlot b("0", GpuUse::Shared);
    EXPECT_EQ(a.held(), 1);
    EXPECT_EQ(b.held(), 1);
    EXPECT_FALSE(childGetsSlot("0", GpuUse::Shared, 1));
    EXPECT_TRUE(childGetsSlot("1", GpuUse::Shared, 1)) << "another GPU has slots of its own";
}

TEST_F(GpuSlots, AnExclusiveHolderWaitsForEverySlot) {
    {
        const GpuSlot one("0", GpuUse::Shared);
        EXPECT_FALSE(childGetsSlot("0", GpuUse::Alone, 1));
    }
    EXPECT_TRUE(childGetsSlot("0", GpuUse::Alone, 1));
    const GpuSlot all("0", GpuUse::Alone);
    EXPECT_EQ(all.held(), 2);
    EXPECT_FALSE(childGetsSlot("0", GpuUse::Shared, 1));
}

// A timed call waits only for the calls already running: while it gathers
// the slots, a new plain caller takes none, even one that is free. (Each
// holder is a process of its own: a forked child would share the parent's
// locks.)
TEST_F(GpuSlots, AQueuedExclusiveCallerKeepsNewCallersOut) {
    const auto holdFor = [](bool exclusive, unsigned seconds) {
        const pid_t pid = fork();
        if (pid == 0) {
            const GpuSlot slot("0", exclusive ? GpuUse::Alone : GpuUse::Shared);
            sleep(seconds);
            _exit(slot.held() == (exclusive ? 2 : 1) ? 0 : 1);
        }
        return pid;
    };
    const pid_t running = holdFor(false, 2);
    usleep(300000);
    const pid_t timed = holdFor(true, 1);  // queues, takes the free slot, waits for the held one
    usleep(300000);
    EXPECT_FALSE(childGetsSlot("0", GpuUse::Shared, 1)) << "a slot was free, but a timed call was queued for the GPU";
    for (const pid_t pid : {running, timed}) {
        int status = 0;
        waitpid(pid, &status, 0);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    EXPECT_TRUE(childGetsSlot("0", GpuUse::Shared, 1));
}

// Starting a runner runs no kernel: it needs no slot, only no timed call.
TEST_F(GpuSlots, AStartTakesNoSlotButWaitsForATimedCall) {
    {
        const GpuSlot a("0", GpuUse::Shared);
        const GpuSlot b("0", GpuUse::Shared);
        EXPECT_TRUE(childGetsSlot("0", GpuUse::Startup, 1)) << "every slot was taken, and a start needs none";
        const GpuSlot start("0", GpuUse::Startup);
        EXPECT_EQ(start.held(), 0);
    }
    {
        const GpuSlot timed("0", GpuUse::Alone);
        EXPECT_FALSE(childGetsSlot("0", GpuUse::Startup, 1)) << "a runner started while a timed call held the GPU";
    }
    EXPECT_TRUE(childGetsSlot("0", GpuUse::Startup, 1));
}

TEST_F(GpuSlots, ATimedCallWaitsForTheStartsUnderWay) {
    const pid_t starting = fork();
    if (starting == 0) {
        const GpuSlot start("0", GpuUse::Startup);
        sleep(2);
        _exit(0);
    }
    usleep(300000);
    EXPECT_FALSE(childGetsSlot("0", GpuUse::Alone, 1)) << "a timed call began while a runner was starting";
    int status = 0;
    waitpid(starting, &status, 0);
    EXPECT_TRUE(childGetsSlot("0", GpuUse::Alone, 1));
}

// A report or a timed case holds the GPU from its first call to its last:
// nothing else takes a slot in between, and its own calls take none (with
// every slot held, a call that queued for one would wait for ever).
TEST_F(GpuSlots, AHoldKeepsTheWholeGpuAcrossItsCalls) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    const std::string restore = visible != nullptr ? visible : "";
    unsetenv("CUDA_VISIBLE_DEVICES");  // the calls' GPU is then "0"
    RunnerCall call;
    call.runner = FAKE_RUNNER;
    call.subcommand = "ok";
    call.timeLimitSeconds = 10.0;
    {
        const WholeGpuHold hold;
        EXPECT_FALSE(childGetsSlot("0", GpuUse::Shared, 1));
        const double aloneBefore = runnerCallTotals().exclusiveCallSeconds;
        for (const bool timed : {false, true}) {
            call.exclusiveGpu = timed;
            const RunnerOutcome outcome = callRunner(call);
            EXPECT_TRUE(outcome.ok()) << outcome.message;
        }
        EXPECT_GT(runnerCallTotals().exclusiveCallSeconds, aloneBefore) << "calls in a hold held the GPU alone";
        { const WholeGpuHold inner; }
        EXPECT_FALSE(childGetsSlot("0", GpuUse::Shared, 1)) << "an inner hold let go of the outer one's slots";
    }
    EXPECT_TRUE(childGetsSlot("0", GpuUse::Shared, 1));
    if (visible != nullptr) setenv("CUDA_VISIBLE_DEVICES", restore.c_str(), 1);
}

// GRADING_SLOT_TRACE: a line per slot given back, with when it was asked
// for, got and given back; an exclusive caller's wait for a held slot shows
// as the gap between its first two times.
TEST_F(GpuSlots, TheTraceSaysWhenEachSlotWasAskedForGotAndGivenBack) {
    const std::string trace = dir_.file("slots.tsv");
    setenv("GRADING_SLOT_TRACE", trace.c_str(), 1);
    const pid_t holder = fork();
    if (holder == 0) {
        {
            const GpuSlot slot("0", GpuUse::Shared);
            usleep(800000);
        }
        _exit(0);
    }
    usleep(200000);
    { const GpuSlot timed("0", GpuUse::Alone); }
    waitpid(holder, nullptr, 0);
    { const GpuSlot start("0", GpuUse::Startup); }
    unsetenv("GRADING_SLOT_TRACE");

    std::ifstream in(trace);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::vector<std::string> row;
        for (std::string f; std::getline(fields, f, '\t');) row.push_back(f);
        rows.push_back(row);
    }
    ASSERT_EQ(rows.size(), 3u) << "one line per slot";
    const std::vector<std::string> uses = {"shared", "alone", "startup"};  // in the order they were given back
    for (size_t i = 0; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i].size(), 6u);
        EXPECT_EQ(rows[i][0], "0");
        EXPECT_EQ(rows[i][1], uses[i]);
        const long long asked = std::stoll(rows[i][2]), got = std::stoll(rows[i][3]), back = std::stoll(rows[i][4]);
        EXPECT_LE(asked, got);
        EXPECT_LE(got, back);
        EXPECT_EQ(std::stol(rows[i][5]), i == 0 ? holder : getpid());
    }
    const long long waited = std::stoll(rows[1][3]) - std::stoll(rows[1][2]);
    EXPECT_GT(waited, 400000) << "the exclusive caller waited about 0.6 s for the shared slot";
    EXPECT_GE(std::stoll(rows[1][3]), std::stoll(rows[0][4])) << "it got the GPU only once the shared slot was back";
}

TEST_F(GpuSlots, ZeroTurnsTheBoundOff) {
    setenv("GRADING_GPU_SLOTS", "0", 1);
    const GpuSlot a("0", GpuUse::Alone);
    EXPECT_EQ(a.held(), 0);
    EXPECT_TRUE(childGetsSlot("0", GpuUse::Alone, 1));
}

TEST_F(GpuSlots, ADeadHoldersSlotIsFree) {
    const pid_t pid = fork();
    if (pid == 0) {
        const GpuSlot a("0", GpuUse::Alone);
        _exit(0);  // dies holding both
    }
    waitpid(pid, nullptr, 0);
    EXPECT_TRUE(childGetsSlot("0", GpuUse::Alone, 1));
}

}  // namespace
}  // namespace grading
