#pragma once
// The day 34 gates (grading.md, "Day 34"). Plain host functions over what a
// runner returned; each names the first disagreement.
#include <string>
#include <utility>
#include <vector>

#include "harness/gate.h"
#include "heat_constants.h"

namespace day34 {

// Every cell of `got` (n * n floats, `kernel` after `steps` steps) within
// relative `relTolerance` of the double reference; the scale is |want|, or 1
// where want is 0. A NaN or infinite cell is always a mismatch.
grading::GateResult checkStencil(const std::string& kernel, int steps, int n, const std::vector<float>& got,
                                 const std::vector<double>& want, double relTolerance = kRelTolerance);

// Every ring cell of `got` (the grid after `steps` steps) equals its initial
// value exactly. Apply it to both ping-pong buffers: a run that initialised
// only one of them keeps the right ring in that one.
grading::GateResult checkRing(const std::string& kernel, int steps, int n, const std::vector<float>& got,
                              const std::vector<float>& initial);

// The final grid of a run copied back every `copyEvery` steps is
// bit-identical to the never-copied run's.
grading::GateResult checkCopyPolicy(int n, const std::vector<float>& never, const std::vector<float>& copied,
                                    int copyEvery);

// At r <= 1/4: no cell is NaN or infinite and max |u| <= initialMax * (1 + slack).
grading::GateResult checkMaxPrinciple(double r, float maxAbs, long long nonFinite, int steps, float initialMax,
                                      float slack = kMaxPrincipleSlack);

// Past r = 1/4: max |u| exceeds the initial max.
grading::GateResult checkUnstable(double r, float maxAbs, long long nonFinite, int steps, float initialMax);

// Every figure (name, milliseconds) is a real, positive time.
grading::GateResult checkTimings(const std::vector<std::pair<std::string, double>>& figuresMs);

// "%.9g", the way the course prints a float it compares.
std::string formatValue(double v);

}  // namespace day34
