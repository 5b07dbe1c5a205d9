#pragma once
// GoogleTest glue shared by the day suites: which runner is under test, the
// grading seed, the per-test device check, and how a gate verdict is shown.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "harness/gate.h"
#include "harness/runner_client.h"

namespace grading::testing {

// From the command line: --runner=PATH (the runner under test) and
// --runner-dir=DIR (where the planted and stub runners live).
const std::string& runnerUnderTest();
std::string runnerInDir(const std::string& name);

// GRADING_SEED when set, otherwise drawn once per process. Printed and
// recorded as the test property "seed" so any failure replays.
uint64_t gradingSeed();

// The runner's "probe" subcommand, run once per process per runner.
const RunnerOutcome& probe(const std::string& runner);

// Shows a verdict the way the grade report reads it ("GATE <id> PASS|FAIL
// <context>: <message>" on stdout, the gate id as a test property) and fails
// the test when the gate failed.
void expectGate(const GateResult& result, const std::string& context);

}  // namespace grading::testing

// Skips this test (not the whole run: a global skip would read as passed)
// when the runner finds no usable GPU.
#define GRADING_SKIP_WITHOUT_DEVICE(runner)                                    \
    do {                                                                       \
        const ::grading::RunnerOutcome& probe_ = ::grading::testing::probe(runner); \
        if (probe_.noDevice()) GTEST_SKIP() << probe_.message;                 \
        ASSERT_TRUE(probe_.ok()) << probe_.message;                            \
    } while (0)

// A runner call that must have produced a result; its failure (a hang, a
// fault, an early exit) fails this test with the runner's message.
#define GRADING_ASSERT_RAN(outcome)                                            \
    do {                                                                       \
        if ((outcome).noDevice()) GTEST_SKIP() << (outcome).message;           \
        ASSERT_TRUE((outcome).ok()) << (outcome).message;                      \
    } while (0)
