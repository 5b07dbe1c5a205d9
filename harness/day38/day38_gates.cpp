#include "day38_gates.h"

#include "harness/poison.h"

namespace day38 {

using grading::GateResult;

GateResult checkDistances(const grading::Graph& g, const std::vector<int>& got,
                          const std::vector<int>& want) {
    const char* id = "38.distances";
    if (got.size() != want.size()) {
        return GateResult::fail(id, "got " + std::to_string(got.size()) + " distances for " +
                                        std::to_string(want.size()) + " vertices");
    }
    for (size_t v = 0; v < want.size(); ++v) {
        if (got[v] != want[v]) {
            return GateResult::fail(id, "vertex " + std::to_string(v) + " (" + g.word(static_cast<int>(v)) +
                                            "): got " + std::to_string(got[v]) + ", want " +
                                            std::to_string(want[v]));
        }
    }
    return GateResult::pass(id);
}

GateResult checkLevels(long long got, int want) {
    const char* id = "38.levels";
    if (got != want) {
        return GateResult::fail(id, "levels: got " + std::to_string(got) + ", want " + std::to_string(want));
    }
    return GateResult::pass(id);
}

GateResult checkFrontierTotal(const std::vector<int64_t>& levelSizes, int reached) {
    const char* id = "38.frontier_total";
    long long held = 0;
    for (int64_t size : levelSizes) held += size;
    const std::string counts = "frontiers held " + std::to_string(held) + " vertices, want " +
                               std::to_string(reached) + " (the vertices reached)";
    if (held > reached) return GateResult::fail(id, counts + ": a vertex was enqueued more than once");
    if (held < reached) return GateResult::fail(id, counts + ": some reached vertex was never enqueued");
    return GateResult::pass(id);
}

GateResult checkWalk(const grading::Graph& g, int level, const std::vector<int>& frontier,
                     const std::vector<uint32_t>& got, int repeats) {
    const char* id = "38.walk";
    if (got.size() != frontier.size()) {
        return GateResult::fail(id, "level " + std::to_string(level) + ": got " + std::to_string(got.size()) +
                                        " checksums for a frontier of " + std::to_string(frontier.size()));
    }
    for (size_t slot = 0; slot < frontier.size(); ++slot) {
        const uint32_t want = grading::walkChecksum(g, frontier[slot], repeats);
        if (got[slot] != want) {
            return GateResult::fail(id, "level " + std::to_string(level) + ": walk wrong at slot " +
                                            std::to_string(slot) + ", vertex " + std::to_string(frontier[slot]) +
                                            " (" + g.word(frontier[slot]) + "): got " + std::to_string(got[slot]) +
                                            ", want " + std::to_string(want) + grading::unwrittenNote(got[slot]));
        }
    }
    return GateResult::pass(id);
}

GateResult checkTimings(const std::vector<std::pair<std::string, double>>& figuresMs) {
    return grading::checkPositiveTimes("38.timing", figuresMs);
}

}  // namespace day38
