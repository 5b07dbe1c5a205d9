#pragma once
// The day 34 gates (grading.md, "Day 34"): plain host functions over what a
// runner returned and the host reference; each names the first disagreement
// (where, got, want). day.cpp declares which cases each one runs on.
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "harness/gate.h"
#include "heat_constants.h"

namespace day34 {

// One cell against the double reference: within relative `relTolerance`,
// the scale |want|, or 1 where want is 0. A NaN or infinite cell never is.
bool cellMatches(float got, double want, double relTolerance = kRelTolerance);

// Every cell of `got` (n * n floats, `kernel` after `steps` steps) matches
// (cellMatches); a cell that still holds the runner's poison is named as
// never written.
grading::GateResult checkStencil(const std::string& kernel, int steps, int n, const std::vector<float>& got,
                                 const std::vector<double>& want, double relTolerance = kRelTolerance);

// Every ring cell of `got` (the grid after `steps` steps) equals its initial
// value exactly. Apply it to both ping-pong buffers: a run that initialised
// only one of them keeps the right ring in that one.
grading::GateResult checkRing(const std::string& kernel, int steps, int n, const std::vector<float>& got,
                              const std::vector<float>& initial);
// The same over the ring's cells alone, in ringCell order (the other
// buffer's, which is all a runner sends of it).
grading::GateResult checkRingCells(const std::string& kernel, int steps, int n, const std::vector<float>& ring,
                                   const std::vector<float>& initial);

// The ring of an n x n grid (n >= 3) in row-major order: row 0, the first
// and last cell of each row between, row n - 1. ringCell(k, n) is the flat
// index of its k-th cell, k < ringCells(n).
inline size_t ringCells(int n) { return 4 * static_cast<size_t>(n) - 4; }
inline size_t ringCell(size_t k, int n) {
    const size_t side = static_cast<size_t>(n);
    if (k < side) return k;
    const size_t between = 2 * (side - 2);
    if (k < side + between) {
        const size_t j = k - side;
        return (1 + j / 2) * side + (j % 2 == 0 ? 0 : side - 1);
    }
    return (side - 1) * side + (k - side - between);
}

// The final grid of a run copied back every `copyEvery` steps is
// bit-identical to the never-copied run's.
grading::GateResult checkCopyPolicy(int n, const std::vector<float>& never, const std::vector<float>& copied,
                                    int copyEvery);

// What the host holds after a run copied back every `copyEvery` steps
// (`steps` a multiple of it, so the last copy came after the last step) is
// bit-identical to the final grid on the device.
grading::GateResult checkSnapshot(int n, int steps, int copyEvery, const std::vector<float>& final,
                                  const std::vector<float>& snapshot);

// At r <= 1/4: no cell is NaN or infinite and max |u| <= initialMax * (1 + slack).
grading::GateResult checkMaxPrinciple(double r, float maxAbs, long long nonFinite, int steps, float initialMax,
                                      float slack = kMaxPrincipleSlack);

// Past r = 1/4: max |u| exceeds the initial max.
grading::GateResult checkUnstable(double r, float maxAbs, long long nonFinite, int steps, float initialMax);

// copyGrid's output is its input, bit for bit (34.timing checks what the
// timed copies left).
grading::GateResult checkCopy(int n, const std::vector<float>& got, const std::vector<float>& input);

// How far a timed run's cell may be from the course's float step of the
// same keyed grid (values in [-1, 1)): times max(1, |want|), so a cell near
// zero gets the rounding of its neighbours' sum, about 1e-6; a run that did
// not step its own grid is off by the step itself, r times the neighbours.
constexpr float kTimedRunTolerance = 1e-4f;

// Every figure (name, milliseconds) is a real, positive time.
grading::GateResult checkTimings(const std::vector<std::pair<std::string, double>>& figuresMs);

// 34.timing: every timed run of `kernel` did its own step: runDiff[i] (the
// runner's device check of run i's output against the course's answer to
// run i's own grid, protocol.h) is -1 for each of `runs` runs; else it
// names the run and the cell.
grading::GateResult checkTimedRuns(const std::string& kernel, int n, const std::vector<int64_t>& runDiff, int runs);

// A clocked call's proof of work (protocol.h, ClockedResult): after `steps`
// chained steps of `kernel` the grid's energy is within kClockedEnergyTolerance
// (relative) of `want`'s, the instructor's runner's on the same input, and
// no more of its cells are not finite. Skipping one step in a hundred moves
// the energy by more; a kernel that rounds differently, far less.
constexpr double kClockedEnergyTolerance = 1e-3;
grading::GateResult checkClockedSteps(const std::string& kernel, int steps, double gotEnergy, long long gotNonFinite,
                                      double wantEnergy, long long wantNonFinite);

// "%.9g", the way the course prints a float it compares. Inline: the
// runner names cells and values the same way.
inline std::string formatValue(double v) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.9g", v);
    return text;
}

// "row 1, col 2" of cell `index` of an n x n grid.
inline std::string cellName(size_t index, int n) {
    const size_t stride = static_cast<size_t>(n);
    return "row " + std::to_string(index / stride) + ", col " + std::to_string(index % stride);
}

}  // namespace day34
