#pragma once
// The day 52 host reference: the kernels' arithmetic in the kernels' order,
// in float. grindFma's x = fmaf(a, x, b) is std::fmaf here (both round once
// per step), and sumFour's four-way add is the same left-to-right sum, so a
// correct GPU result agrees bit for bit; the 1e-6 tolerance is slack, not need.
#include <cstddef>
#include <vector>

namespace day52 {

// `iters` steps of x = std::fmaf(a, x, b).
float grindHost(float x, float a, float b, int iters);
// ((b0 + b1) + b2) + b3, in float.
float sumFourHost(float b0, float b1, float b2, float b3);
// The whole diamond for one input value: mid = grind(x, kUpstreamB), branch j
// = grind(mid, kBranchB[j]), out = sumFourHost of the four branches.
float diamondElementHost(float x);

// The course's input, kElems values (courseInput(i)).
std::vector<float> courseInputs();
// diamondElementHost of every input. Each distinct input value is computed
// once (the course's input has 251), which keeps this fast.
std::vector<float> diamondHost(const std::vector<float>& in);

}  // namespace day52
