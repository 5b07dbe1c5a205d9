#pragma once
// The day 52 host reference: the kernels' arithmetic in the kernels' order,
// in float. grindFma's x = fmaf(a, x, b) is std::fmaf here (both round once
// per step), and sumFour's four-way add is the same left-to-right sum, so a
// correct GPU result agrees bit for bit; the 1e-6 tolerance is slack, not need.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace day52 {

// `iters` steps of x = std::fmaf(a, x, b).
float grindHost(float x, float a, float b, int iters);
// ((b0 + b1) + b2) + b3, in float.
float sumFourHost(float b0, float b1, float b2, float b3);
// The whole diamond for one input value: mid = grind(x, kUpstreamB), branch j
// = grind(mid, kBranchB[j]), out = sumFourHost of the four branches.
float diamondElementHost(float x);

// diamondElementHost of every input. Each distinct input value (by its bits)
// is computed once: the inputs (inputs.h) hold at most a few thousand.
std::vector<float> diamondHost(const std::vector<float>& in);
// The reference for the input of `key` (inputs.h).
std::vector<float> diamondHostForKey(uint64_t key);

}  // namespace day52
