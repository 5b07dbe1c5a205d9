#pragma once
// The course's three day 34 tables, as text: one step against the copy floor,
// the 1000-step copy policies, and the stability runs. Observations only.
#include <cstddef>
#include <string>
#include <vector>

namespace day34 {

// Effective bandwidth of one pass over the grid: every cell read once and
// written once (2 * cells * 4 bytes), in GB/s (10^9 bytes). The stencils are
// held to the same byte count, which is what makes "% of copy" a fair floor.
double bandwidthGBs(double ms, size_t cells);

// GiB copied to the host by `steps` steps copied back every `copyEvery` (0: never).
double gibToHost(int copyEvery, int steps, size_t cells);

std::string policyLabel(int copyEvery);  // "never copied back", "copied back every 100 steps", ...

struct OneStepRow {
    std::string kernel;
    double ms = 0.0;     // median of the timed runs
    double iqrMs = 0.0;  // their interquartile range
};
// The first row is the floor (copyGrid); every row's "% of copy" is floor ms / row ms.
std::string oneStepTable(const std::vector<OneStepRow>& rows, size_t cells, int warmups, int timedRuns);

struct PolicyRow {
    int copyEvery = 0;
    double ms = 0.0;
};
// The ratio column is against the first row (never copied back).
std::string policyTable(const std::vector<PolicyRow>& rows, int steps, size_t cells);

struct StabilityRow {
    double r = 0.0;
    double maxAbs = 0.0;
    bool finite = true;
};
std::string stabilityTable(const std::vector<StabilityRow>& rows, int steps, double initialMax);

}  // namespace day34
