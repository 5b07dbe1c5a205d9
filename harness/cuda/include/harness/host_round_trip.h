#pragma once
// The host's round trip to the GPU: a one-thread kernel launched, 4 bytes
// copied back, the host waiting for both. Every host-driven loop pays one
// per step (a search that reads a count back per level), so a report shows
// it beside the times it is part of: on a virtual machine it moves between
// regimes over seconds, whatever the process or its CPU (docs/performance.md,
// "The host's round trip"). It shows the host's state; it
// does not predict a whole search's time, which is mostly waiting for each
// level's GPU work and moves on its own, at times against this figure
// (grading.md, "How times are measured").
#include <optional>

namespace grading {

// The median of `samples` round trips on the legacy stream, in
// microseconds; none when they could not be measured. Leaves no allocation
// and no error behind.
std::optional<double> hostRoundTripMicros(int samples);

}  // namespace grading
