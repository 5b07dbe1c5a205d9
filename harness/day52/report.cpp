#include "report.h"

#include "forkjoin_constants.h"
#include "harness/text.h"

namespace day52 {

using grading::formatText;

std::string timingTable(const grading::TimingStats& serial, const grading::TimingStats& diamond,
                        const std::string& device, int smCount) {
    std::string s = "day 52 timings on " + device + " (" + std::to_string(smCount) + " SMs), " +
                    std::to_string(serial.samplesMs.size()) + " timed runs after " + std::to_string(kWarmupRuns) +
                    " warm-ups\n";
    s += "  shape     median ms     IQR ms     min ms     max ms\n";
    for (const auto& [name, t] : {std::pair<const char*, const grading::TimingStats*>{"serial", &serial},
                                  {"diamond", &diamond}}) {
        s += formatText("  %-8s %10.3f %10.3f %10.3f %10.3f\n", name, t->medianMs, t->iqrMs(), t->minMs, t->maxMs);
    }
    s += diamond.medianMs > 0.0f
             ? formatText("  serial / diamond (medians): %.2fx", serial.medianMs / diamond.medianMs)
             : formatText("  serial / diamond (medians): no ratio, the diamond time is %g ms", diamond.medianMs);
    s += smCount >= kMinSmsForGate
             ? formatText(" (gated: >= %.2fx on >= %d SMs)\n", kMinOverlapRatio, kMinSmsForGate)
             : formatText(" (reported, not gated: under %d SMs)\n", kMinSmsForGate);
    return s;
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
