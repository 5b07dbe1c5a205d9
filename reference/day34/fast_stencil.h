#pragma once
// The instructor-only fast stencil (solution/heat_fast.cu): the same step as
// the course's kernels, at close to the speed of copying the grid. Not part
// of the course's API. The reference runner links the real one and serves it
// as kernel "fast"; every other runner (the stub, a submission, a planted or
// hostile file) links fast_absent.cpp, whose launcher says it is not there
// and whose fastStencilAvailable() says false. Its gate cases are instructor
// cases (student = false): the reference suite only. Plain C++, so the
// grader can read kFastStencilAbsent.
namespace day34 {

// How fast_absent.cpp's message begins; the report reads it.
constexpr const char* kFastStencilAbsent = "the fast stencil is not in this runner";

// One step from `in` to `out` of an n x n grid at r, interior only, on the
// default stream (a StepLauncher). rowsPerThread: 2, 4, 8, 16 or 32 (the
// benchmark compares them); the default is the fastest on the H200.
void launchHeatStepFast(const float* in, float* out, int n, float r);
void launchHeatStepFast(const float* in, float* out, int n, float r, int rowsPerThread);

// False in runners without the fast stencil.
bool fastStencilAvailable();

}  // namespace day34
