#pragma once
// A day's report run after one of its timed gates in one process, as a
// class's day test runs them, against the stand-in runner
// (fake_runner.cpp), which answers every call with a record no day can
// read: how many of the report's calls were read back rather than asked.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "harness/day.h"
#include "harness/runner_client.h"
#include "scoped_env.h"

// `gate`: its student case runs first; empty: the report alone. `stopsWith`:
// empty, the report must run to its end; else it must stop (throw, as the
// driver reports it) with a message starting so, and what it read back
// before that counts. Each call
// takes its own seed, so nothing an earlier call kept is read back, unless
// the caller means it to. `runner`: the student's; `courseRunner`: the
// day's course runner, none by default.
inline int reportCallsReadBack(const grading::Day& day, const std::string& gate, uint64_t seed,
                               const std::string& runner = FAKE_RUNNER, const std::string& courseRunner = "",
                               const std::string& stopsWith = "") {
    grading::setSandboxPolicy(grading::SandboxPolicy::Off);  // the stand-in is the harness's own
    const ScopedEnv env({{"GRADING_GPU_SLOTS", "0"}, {"GRADING_ANSWER_CACHE", nullptr}});
    if (!gate.empty()) {
        const grading::DayGate* timed = day.find(gate);
        if (timed == nullptr) throw std::logic_error(day.name() + " declares no " + gate);
        for (const grading::GateCase& c : timed->cases) {
            if (c.student) c.run({runner, seed, c.limitSeconds, true, "", courseRunner});
        }
    }
    const int before = grading::runnerCallTotals().answersReused;
    for (const grading::Observation& ob : day.observations()) {
        try {
            ob.run({runner, seed, ob.limitSeconds, true, "", courseRunner});
            if (!stopsWith.empty()) ADD_FAILURE() << ob.name << " ran to its end, want it stopped: " << stopsWith;
        } catch (const std::exception& e) {
            if (stopsWith.empty() || std::string(e.what()).rfind(stopsWith, 0) != 0) {
                ADD_FAILURE() << ob.name << " stopped: " << e.what();
            }
        }
    }
    return grading::runnerCallTotals().answersReused - before;
}

// The stand-in runner under a path of its own: to the answers it is another
// runner (a second student's, a day's course runner). Removed with it.
class StandInCopy {
public:
    explicit StandInCopy(const std::string& name)
        : path_(::testing::TempDir() + name + "_" + std::to_string(getpid())) {
        std::filesystem::copy_file(FAKE_RUNNER, path_, std::filesystem::copy_options::overwrite_existing);
    }
    ~StandInCopy() { std::filesystem::remove(path_); }
    StandInCopy(const StandInCopy&) = delete;
    StandInCopy& operator=(const StandInCopy&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};
