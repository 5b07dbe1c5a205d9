#include "report.h"

#include <cmath>
#include <cstdio>

#include "harness/text.h"

namespace day34 {

using grading::formatText;

double bandwidthGBs(double ms, size_t cells) {
    if (!(ms > 0.0)) return 0.0;
    const double bytes = 2.0 * static_cast<double>(cells) * sizeof(float);
    return bytes / (ms * 1e-3) / 1e9;
}

double gibToHost(int copyEvery, int steps, size_t cells) {
    if (copyEvery <= 0) return 0.0;
    const double copies = static_cast<double>(steps / copyEvery);
    return copies * static_cast<double>(cells) * sizeof(float) / (1024.0 * 1024.0 * 1024.0);
}

std::string policyLabel(int copyEvery) {
    if (copyEvery <= 0) return "never copied back";
    if (copyEvery == 1) return "copied back every step";
    return formatText("copied back every %d steps", copyEvery);
}

std::string oneStepTable(const std::vector<OneStepRow>& rows, size_t cells, int warmups, int timedRuns) {
    std::string out = formatText("One step, median of %d runs after %d warm-ups (IQR: the middle half of the runs)\n",
                                 timedRuns, warmups);
    out += formatText("%-22s %11s %9s %9s %11s\n", "kernel", "time (ms)", "IQR ms", "GB/s", "% of copy");
    const double floorMs = rows.empty() ? 0.0 : rows.front().ms;
    for (const OneStepRow& row : rows) {
        const double percent = floorMs > 0.0 && row.ms > 0.0 ? 100.0 * floorMs / row.ms : 0.0;
        out += formatText("%-22s %11.4f %9.4f %9.1f %11.1f\n", row.kernel.c_str(), row.ms, row.iqrMs,
                          bandwidthGBs(row.ms, cells), percent);
    }
    return out;
}

std::string policyTable(const std::vector<PolicyRow>& rows, int steps, size_t cells) {
    std::string out = formatText("%d steps of heatStepTiled; only the copy policy changes\n", steps);
    out += formatText("%-28s %11s %14s %14s %9s\n", "policy", "total (ms)", "per step (ms)", "to host (GiB)",
                  "vs never");
    const double neverMs = rows.empty() ? 0.0 : rows.front().ms;
    for (const PolicyRow& row : rows) {
        const double ratio = neverMs > 0.0 ? row.ms / neverMs : 0.0;
        out += formatText("%-28s %11.3f %14.4f %14.2f %8.1fx\n", policyLabel(row.copyEvery).c_str(), row.ms,
                      steps > 0 ? row.ms / steps : 0.0, gibToHost(row.copyEvery, steps, cells), ratio);
    }
    return out;
}

std::string stabilityTable(const std::vector<StabilityRow>& rows, int steps, double initialMax) {
    std::string out = formatText("%d steps at each r, from max |u| = %.3f\n", steps, initialMax);
    out += formatText("%8s %10s %12s %22s %9s\n", "r", "1 - 4r", "|1 - 8r|", "max |u| at the end", "finite");
    for (const StabilityRow& row : rows) {
        out += formatText("%8.3f %10.3f %12.3f %22.6g %9s\n", row.r, 1.0 - 4.0 * row.r, std::fabs(1.0 - 8.0 * row.r),
                      row.maxAbs, row.finite ? "yes" : "no");
    }
    return out;
}

}  // namespace day34
