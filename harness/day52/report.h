#pragma once
// The course's day 52 printout as text: the timing table with the overlap
// ratio, and the race observation.
#include <cstddef>
#include <string>

#include "harness/timing_stats.h"

namespace day52 {

// serial and diamond per-run times (median, min, max), the ratio of the
// medians and whether it is gated on this device.
std::string timingTable(const grading::TimingStats& serial, const grading::TimingStats& diamond,
                        const std::string& device, int smCount);

// The broken order's wrong-element count, with what it does and does not mean.
std::string raceObservation(size_t wrong, size_t total);

}  // namespace day52
