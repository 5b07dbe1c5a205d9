#pragma once
// GoogleTest glue of the day driver (driver.cpp, day.cpp): the
// grading seed, the per-runner device check, and how a gate verdict is shown.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "harness/expected.h"
#include "harness/gate.h"
#include "harness/runner_client.h"

namespace grading::testing {

// GRADING_SEED: a decimal number from 0 to 2^64 - 1, nothing else.
Expected<uint64_t> parseSeed(const std::string& text);

// GRADING_SEED when set, otherwise drawn once per process. Printed and
// recorded as the test property "seed" so any failure replays. A malformed
// GRADING_SEED ends the process with a message (the driver checks it first).
uint64_t gradingSeed();
// The same seed, neither printed nor recorded (for use outside a test).
uint64_t gradingSeedValue();

// The runner whose word on this machine the grader takes: one with no
// submitted code (the day's course runner, else the instructor's); "" where
// the tree has neither (a student kit's day without a course runner).
std::string& machineRunner();

// The runner's "probe" subcommand, run once per process per runner. Whether
// this machine can run the day is the machine runner's word: a submitted
// runner that answers "no usable CUDA device" where the machine runner runs
// fails its probe, never reads as NOT RUN.
const RunnerOutcome& probe(const std::string& runner);

// Prints a verdict the way the grade report reads it: "GATE <id> PASS|FAIL
// <context>: <message>" on stdout.
void printGate(const GateResult& result, const std::string& context);

// printGate, the gate id as a test property, and a failed test when the gate
// failed.
void expectGate(const GateResult& result, const std::string& context);

}  // namespace grading::testing

// Skips this test (not the whole run: a global skip would read as passed)
// when this machine cannot run the runner: no usable GPU, or no sandbox for
// submitted code. The reason is the skip's message; the report reads such a
// gate as NOT RUN, never as failed.
#define GRADING_SKIP_WHERE_IT_CANNOT_RUN(runner)                                         \
    do {                                                                            \
        const ::grading::RunnerOutcome& probe_ = ::grading::testing::probe(runner); \
        if (probe_.cannotRunHere()) GTEST_SKIP() << probe_.message;                 \
        ASSERT_TRUE(probe_.ok()) << probe_.message;                                 \
    } while (0)
