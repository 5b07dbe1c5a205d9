#pragma once
// The day 34 host reference, in double: written to be obviously right, not
// fast. The grader computes it itself; nothing of it is sent to a runner.
#include <cstddef>
#include <vector>

namespace day34 {

// One explicit step of an n x n grid: every interior cell gets
// u + r * (west + east + north + south - 4u); the ring is copied unchanged.
void heatStepHost(const double* in, double* out, int n, double r);

// `steps` steps at r from `initial` (n * n floats).
std::vector<double> hostReference(const std::vector<float>& initial, int n, int steps, double r);

// max |u| over the cells; NaN cells are skipped (count them separately).
float maxAbs(const std::vector<float>& grid);
double maxAbs(const std::vector<double>& grid);
long long countNonFinite(const std::vector<float>& grid);

// Whether cell `index` of an n x n grid is on the boundary ring.
bool onRing(size_t index, int n);

}  // namespace day34
