#pragma once
// Day 38 constants shared by the kernels, the runner and the host-only suites.
namespace day38 {

constexpr int kThreadsPerBlock = 256;  // 8 warps
constexpr int kWarpSize = 32;
constexpr int kWalkRepeats = 64;  // lifts one level's walk above launch cost
static_assert(kThreadsPerBlock % kWarpSize == 0, "a block holds whole warps");

}  // namespace day38
