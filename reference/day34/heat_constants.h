#pragma once
// Day 34 constants, plain C++: the kernels, the runner and the host-only
// suites all read them from here, so the host tests build without nvcc.
#include <cstddef>

namespace day34 {

// The grid is kN x kN cells, boundary ring included; only the
// (kN - 2) x (kN - 2) interior ever changes. One buffer is 16 MiB.
constexpr int kN = 2048;
constexpr size_t kCells = static_cast<size_t>(kN) * static_cast<size_t>(kN);

// The 1000-step loop and how often its copy-back policy may copy.
constexpr int kSteps = 1000;
constexpr int kSnapshotEvery = 100;
constexpr int kNumPolicies = 3;
constexpr int kCopyEvery[kNumPolicies] = {0, kSnapshotEvery, 1};  // 0: never

// One block owns a kTileX x kTileY output tile and reads a haloed apron.
constexpr int kTileX = 32;
constexpr int kTileY = 8;
constexpr int kHalo = 1;
constexpr int kSharedX = kTileX + 2 * kHalo;
constexpr int kSharedY = kTileY + 2 * kHalo;
constexpr int kSharedCells = kSharedX * kSharedY;

constexpr int kThreadsPerBlock = 256;  // copyGrid's 1D launch
constexpr int kTaps = 5;               // the five-point stencil

// r = alpha * dt / h^2: two values at or under the 2D bound of 1/4, one past it.
constexpr float kStableR = 0.24f;
constexpr float kBoundaryR = 0.25f;
constexpr float kUnstableR = 0.26f;
constexpr int kNumR = 3;
constexpr float kRValues[kNumR] = {kStableR, kBoundaryR, kUnstableR};
constexpr int kStabilitySteps = 400;

// The stencil check: kCheckSteps steps at kStableR against a double
// reference, relative tolerance with scale |want| (1 where want is 0).
constexpr int kCheckSteps = 4;
constexpr float kRelTolerance = 1e-4f;
// Room for float rounding in the maximum-principle bound, nothing more.
constexpr float kMaxPrincipleSlack = 1e-5f;

constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 10;

constexpr float kHot = 1.0f;
constexpr float kCold = 0.0f;

static_assert(kTileX * kTileY % 32 == 0, "a block is whole warps");
static_assert(kTileX * kTileY <= 1024, "at most 1024 threads per block");
static_assert(kSharedCells * sizeof(float) <= 48u * 1024u, "the apron fits 48 KiB without opt-in");
static_assert(kStableR <= 0.25f && kBoundaryR <= 0.25f, "at or under the CFL bound");
static_assert(kUnstableR > 0.25f, "past the CFL bound");
static_assert(kSteps % 2 == 0, "an even step count ends the ping-pong in the first buffer");
static_assert(kSteps % kSnapshotEvery == 0, "the snapshots divide the run");

}  // namespace day34
