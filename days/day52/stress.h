#pragma once
// How 52.stress makes the timing adversarial (plain C++: the runner and the
// suites share it). Each stress run zeroes d_mid and poisons the branch and
// output buffers, holds the upstream grind kUpstreamHoldMs before it starts,
// and holds one branch, (run % kBranches), kBranchHoldMs. A branch that does
// not wait for the fork reads zeros in every run; a join that does not wait
// for branch j reads poison in every run that holds branch j.
namespace day52 {

constexpr int kStressRuns = 8;  // every branch is held twice
constexpr double kUpstreamHoldMs = 20.0;
constexpr double kBranchHoldMs = 20.0;
constexpr int kMaxStressRuns = 64;
constexpr double kMaxHoldMs = 1000.0;

inline int heldBranch(int run) { return run % 4; }

}  // namespace day52
