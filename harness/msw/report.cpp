#include "report.h"

#include "harness/text.h"

namespace msw {

using grading::formatText;

std::string searchTimeTable(uint64_t n, int runs, const std::vector<SearchTime>& rows) {
    std::string out = formatText("First mismatching word, n = %llu words (%llu MiB per array), median of %d runs\n",
                                 static_cast<unsigned long long>(n), static_cast<unsigned long long>(n * 8 >> 20), runs);
    out += "  two_phase: par_find_mismatch(d_a, b, d_large_block, n), b copied from pinned host memory;"
           " fast: device arrays\n";
    out += formatText("  %-10s  %-10s  %9s  %9s  %9s\n", "impl", "mismatch", "ms", "IQR ms", "GB/s read");
    for (const SearchTime& r : rows) {
        if (!r.failure.empty()) {
            out += formatText("  %-10s  %-10s  (no time: %s)\n", r.impl.c_str(), r.placement.c_str(),
                              r.failure.substr(0, 300).c_str());
            continue;
        }
        const double gbps = readGBs(r.wordsRead, r.medianMs);
        out += formatText("  %-10s  %-10s  %9.3f  %9.3f  %9.1f\n", r.impl.c_str(), r.placement.c_str(), r.medianMs,
                          r.iqrMs, gbps);
    }
    return out;
}

}  // namespace msw
