#pragma once
// Day 52 constants, plain C++ so the host-only suites can use them too. The
// values are the course's (events_forkjoin.cu).
#include <cstddef>

namespace day52 {

constexpr size_t kElems = size_t{1} << 20;  // 4 MiB per float buffer
constexpr int kThreadsPerBlock = 256;
// Eight blocks per grind: the upstream plus four branches is 40 blocks, small
// enough to be resident together, so only the events decide the overlap.
constexpr int kGrindBlocks = 8;
constexpr int kIters = 512;  // fmaf steps per element
constexpr int kBranches = 4;
constexpr float kA = 0.999f;         // x = a*x + b stays bounded near b / (1 - a)
constexpr float kUpstreamB = 1.0f;   // the upstream grind's b
inline constexpr float kBranchB[kBranches] = {0.125f, 0.25f, 0.5f, 1.0f};
constexpr float kRelTolerance = 1e-6f;

constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 10;
// 52.overlap: serial / diamond must reach kMinOverlapRatio, but only on a
// device with room for all 40 grind blocks at once.
constexpr int kMinSmsForGate = 24;
constexpr double kMinOverlapRatio = 1.3;

// sumFour's grid: one thread per element.
constexpr int kSumBlocks = static_cast<int>((kElems + kThreadsPerBlock - 1) / kThreadsPerBlock);

// The course's input: 251 distinct values, repeated.
inline float courseInput(size_t i) { return static_cast<float>(i % 251) * 0.01f; }

}  // namespace day52
