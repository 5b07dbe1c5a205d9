#include "harness/shrink.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scoped_env.h"

namespace {

using grading::GateResult;

TEST(FailureShape, NumbersAndHexDigitsAreOneSymbol) {
    EXPECT_EQ(grading::failureShape("n = 10, planted index 9: got 10, want 9"), "n = #, planted index #: got #, want #");
    EXPECT_EQ(grading::failureShape("b[3] = 0x00ff0a, -26711958 and 1683.25"), "b[#] = 0x#, # and #.#");
    EXPECT_EQ(grading::failureShape("no digits"), "no digits");
    EXPECT_NE(grading::failureShape("planted index 9"), grading::failureShape("planted indices 9, 12"));
}

// A sign is part of its number: day 38's "want -1" (a vertex the search must
// not reach) is a wrong distance like "want 2". A minus between two numbers
// or after a word is text.
TEST(FailureShape, ANumbersSignIsPartOfIt) {
    EXPECT_EQ(grading::failureShape("vertex 5 (v5): got 3, want -1"), grading::failureShape("vertex 7 (v7): got 1, want 2"));
    EXPECT_EQ(grading::failureShape("-0.5 at (-2, 3)"), "#.# at (#, #)");
    EXPECT_EQ(grading::failureShape("edges 0-1 12-3; x-1"), "edges #-# #-#; x-#");
}

// An input is a number; the "gate" fails for every input of at least 7 with
// a message naming it, and with another message for inputs of 100 and more.
struct Threshold {
    int calls = 0;
    grading::Shrinker<int> shrinker() {
        grading::Shrinker<int> s;
        s.candidates = grading::madeAtOnce<int>([](const int& from) {
            std::vector<int> out;
            for (int m = 1; m < from; m *= 2) out.push_back(m);
            if (from > 1) out.push_back(from - 1);
            return out;
        });
        s.judge = [this](const int& in, double) {
            ++calls;
            if (in < 7) return GateResult::pass("t.gate");
            return GateResult::fail("t.gate", in >= 100 ? "too big: " + std::to_string(in) : "wrong at " + std::to_string(in));
        };
        return s;
    }
};

TEST(ShrinkFailure, ReachesTheSmallestInputThatFailsTheSameWay) {
    Threshold t;
    const auto found = grading::shrinkFailure(50, GateResult::fail("t.gate", "wrong at 50"), t.shrinker(), {100, 10.0});
    EXPECT_TRUE(found.smaller);
    EXPECT_EQ(found.input, 7);
    EXPECT_EQ(found.failure.message, "wrong at 7");
    EXPECT_EQ(found.calls, t.calls);
}

TEST(ShrinkFailure, AnotherKindOfFailureIsNotTheSameFailure) {
    Threshold t;
    // From 400 ("too big"), inputs under 100 fail differently: the search stays at 100 and above.
    const auto found = grading::shrinkFailure(400, GateResult::fail("t.gate", "too big: 400"), t.shrinker(), {1000, 10.0});
    EXPECT_TRUE(found.smaller);
    EXPECT_EQ(found.input, 100);
}

TEST(ShrinkFailure, StopsOnItsBudgetWithTheBestSoFar) {
    Threshold t;
    const auto found = grading::shrinkFailure(50, GateResult::fail("t.gate", "wrong at 50"), t.shrinker(), {4, 10.0});
    EXPECT_EQ(t.calls, 4);
    EXPECT_TRUE(found.smaller);  // 1, 2, 4 pass; 8 fails: the best after four calls
    EXPECT_EQ(found.input, 8);
    EXPECT_EQ(found.calls, 4);
    Threshold none;
    const auto unsearched = grading::shrinkFailure(50, GateResult::fail("t.gate", "wrong at 50"), none.shrinker(), {0, 10.0});
    EXPECT_FALSE(unsearched.smaller);
    EXPECT_EQ(unsearched.input, 50);
    EXPECT_EQ(none.calls, 0);
}

TEST(ShrinkFailure, NothingSmallerFailsMeansNothingFound) {
    Threshold t;
    const auto found = grading::shrinkFailure(7, GateResult::fail("t.gate", "wrong at 7"), t.shrinker(), {100, 10.0});
    EXPECT_FALSE(found.smaller);
    EXPECT_EQ(found.input, 7);
    EXPECT_EQ(found.failure.message, "wrong at 7");
    EXPECT_EQ(found.calls, 4);  // 1, 2, 4 and 6, each tried once
}

// What the runner gave back comes with the input it was given for: the
// failing call's own output, kept with the best input, never asked again.
TEST(ShrinkFailure, TheOutputShownIsTheFailingCallsOwn) {
    int calls = 0;
    grading::Shrinker<int, std::string> s;
    s.candidates = grading::madeAtOnce<int>(
        [](const int& from) { return from > 1 ? std::vector<int>{from / 2} : std::vector<int>{}; });
    s.judge = [&calls](const int& in, double) -> grading::Judged<std::string> {
        ++calls;
        if (in < 5) return GateResult::pass("t.gate");
        return {GateResult::fail("t.gate", "wrong at " + std::to_string(in)), "call " + std::to_string(calls)};
    };
    const auto found = grading::shrinkFailure(40, {GateResult::fail("t.gate", "wrong at 40"), "the first call"}, s, {100, 10.0});
    EXPECT_EQ(found.input, 5);  // 20, 10, 5 fail; 2 passes
    EXPECT_EQ(found.output, "call 3");
    EXPECT_EQ(calls, 4);
    const auto unsearched = grading::shrinkFailure(40, {GateResult::fail("t.gate", "wrong at 40"), "the first call"}, s, {0, 10.0});
    EXPECT_EQ(unsearched.output, "the first call");
}

TEST(ShrinkFailure, OncePerGateAProcessWhereItsDetailsAreShown) {
    const GateResult once = GateResult::fail("t.once", "wrong at 4");
    EXPECT_FALSE(grading::shrinksFailure(once, false));  // hidden: not shrunk, and no turn used
    EXPECT_TRUE(grading::shrinksFailure(once, true));
    EXPECT_FALSE(grading::shrinksFailure(once, true));
    EXPECT_TRUE(grading::shrinksFailure(GateResult::fail("t.other", "wrong at 4"), true));
}

TEST(ShrinkFailure, NeverARunnerEndedForItsDeviceMemory) {
    // As runner_session.cpp words it (SessionMemory's tests read it from a session).
    const GateResult hog = GateResult::fail(
        "t.hog", "the runner for `find` held 130.2 GiB of device memory, more than the 16 GiB a runner may hold "
                 "(GRADING_RUNNER_GPU_MEMORY_GIB), so it was ended: memory it keeps is memory the runners graded "
                 "beside it cannot have");
    EXPECT_FALSE(grading::shrinksFailure(hog, true));
    EXPECT_TRUE(grading::shrinksFailure(GateResult::fail("t.hog", "wrong at 4"), true));  // no turn used
}

TEST(Counterexample, WrittenUnderTheFolderNamedAfterTheCall) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "grading-counterexample-test";
    std::filesystem::remove_all(dir);
    const std::string dirText = dir.string();
    const ScopedEnv env({{"GRADING_COUNTEREXAMPLE_DIR", dirText.c_str()}});
    const std::string path = grading::writeCounterexample("msw.index/two_phase_n10", "txt", "n 10\n");
    EXPECT_EQ(path, (dir / "msw.index_two_phase_n10.txt").string());
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "n 10\n");
    std::filesystem::remove_all(dir);
}

TEST(Counterexample, EveryDayShowsItInOneForm) {
    grading::Shrunk<int> found(3, grading::GateResult::fail("x.gate", "got 2, want 1"), {});
    found.smaller = true;
    found.calls = 7;
    found.seconds = 0.5;
    EXPECT_EQ(grading::withSmallestInput(grading::GateResult::fail("x.gate", "got 9, want 8"), found, "n = 3", "words 1 2 3",
                                         "/tmp/x.txt")
                  .message,
              "got 9, want 8; smallest failing input found (7 tries): n = 3: got 2, want 1; words 1 2 3; written to /tmp/x.txt");
    // Nothing smaller failed: the input is the one given; no details, no file.
    found.smaller = false;
    EXPECT_EQ(grading::withSmallestInput(grading::GateResult::fail("x.gate", "m"), found, "n = 9", "", "").message,
              "m; smallest failing input found (7 tries): n = 9: this one");
}

}  // namespace
