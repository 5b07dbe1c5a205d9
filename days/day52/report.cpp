#include "report.h"

#include <cstdio>

#include "forkjoin_constants.h"

namespace day52 {

namespace {

std::string row(const char* name, const grading::TimingStats& t) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "  %-8s %10.3f %10.3f %10.3f\n", name, t.medianMs, t.minMs, t.maxMs);
    return buf;
}

}  // namespace

std::string timingTable(const grading::TimingStats& serial, const grading::TimingStats& diamond,
                        const std::string& device, int smCount) {
    std::string s = "day 52 timings on " + device + " (" + std::to_string(smCount) + " SMs), " +
                    std::to_string(serial.samplesMs.size()) + " timed runs after " + std::to_string(kWarmupRuns) +
                    " warm-ups\n";
    s += "  shape     median ms     min ms     max ms\n";
    s += row("serial", serial);
    s += row("diamond", diamond);
    char buf[256];
    if (diamond.medianMs > 0.0f) {
        std::snprintf(buf, sizeof buf, "  serial / diamond (medians): %.2fx", serial.medianMs / diamond.medianMs);
    } else {
        std::snprintf(buf, sizeof buf, "  serial / diamond (medians): no ratio, the diamond time is %g ms",
                      diamond.medianMs);
    }
    s += buf;
    if (smCount >= kMinSmsForGate) {
        std::snprintf(buf, sizeof buf, " (gated: >= %.2fx on >= %d SMs)\n", kMinOverlapRatio, kMinSmsForGate);
    } else {
        std::snprintf(buf, sizeof buf, " (reported, not gated: under %d SMs)\n", kMinSmsForGate);
    }
    return s + buf;
}

std::string raceObservation(size_t wrong, size_t total) {
    return "race (broken order: the fork recorded before the upstream launch, d_mid zeroed first): " +
           std::to_string(wrong) + " of " + std::to_string(total) +
           " elements wrong.\n"
           "  This is an observation, not a gate: it is a real data race, so the count changes from run to run.\n"
           "  A count of 0 does not make the broken order correct; it only means the upstream won the race this "
           "time.\n";
}

}  // namespace day52
