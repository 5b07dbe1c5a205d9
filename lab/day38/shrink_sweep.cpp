// Day 38's shrinking search against the host model of off_by_one_search
// (tests/day38/off_by_one_model.h) over a range of seeds of the graded
// components graph, with the GPU's seconds modelled: how often it ends above
// 12 vertices, for each order of the claims that varies from run to run.
// docs/performance.md quotes it.
//   <build>/lab/day38_shrink_sweep [FIRST_SEED LAST_SEED]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "off_by_one_model.h"

int main(int argc, char** argv) {
    const uint64_t first = argc > 2 ? std::strtoull(argv[1], nullptr, 10) : 1;
    const uint64_t last = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 400;
    using day38::model::Claims;
    std::printf("| claims | seeds failing by a wrong distance | over 12 vertices | those (seed: vertices, faults, modelled s) |\n");
    std::printf("|---|---|---|---|\n");
    for (const auto& [claims, name] : {std::pair{Claims::Shuffled, "shuffled"}, {Claims::WarpsShuffled, "warps shuffled"}}) {
        int searched = 0, over = 0;
        std::string which;
        for (uint64_t seed = first; seed <= last; ++seed) {
            const auto search = day38::model::componentsSearch(seed, claims);
            if (!search) continue;
            ++searched;
            if (search->found.input.vertexCount <= 12) continue;
            ++over;
            char one[96];
            std::snprintf(one, sizeof one, "%s%llu: %d, %d, %.1f", which.empty() ? "" : "; ",
                          static_cast<unsigned long long>(seed), search->found.input.vertexCount, search->faults,
                          search->seconds);
            which += one;
        }
        std::printf("| %s | %d | %d | %s |\n", name, searched, over, which.c_str());
    }
}
