#pragma once
// Day 34: the course's ping-pong setup (course/heat_pingpong.cu). A unit of
// its own so a planted copy can replace it (plants.cmake).
#include <cstddef>

#include "heat_kernels.h"

namespace day34 {

// Uploads the initial grid into BOTH device buffers. The kernels never write
// the ring, so each buffer must already hold it: initialise one and the wall
// alternates between the real value and whatever the other buffer held.
void resetPingPong(float* a, float* b, const float* hostInit, size_t cells);

// `steps` steps (even) of `launch` at r, from a into b and back; the newest
// grid ends in a. With copyEvery > 0 the newest grid is copied into
// hostSnapshot (n * n floats) after every copyEvery-th step, the way a first
// version lets its author watch. Returns the milliseconds between CUDA events
// recorded around the whole loop, copies included.
float runSteps(StepLauncher launch, float* a, float* b, int n, float r, int steps, int copyEvery,
               float* hostSnapshot);

}  // namespace day34
