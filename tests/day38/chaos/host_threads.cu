// Chaos neighbour: keeps 16 host threads busy for a minute; expands nothing.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>
#include "bfs_mappings.h"
#define expandEdgePerThread static solutionExpandEdgePerThread  // internal: README.md
#include "copied_solution.cu"
#undef expandEdgePerThread

namespace day38 {

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput&, const EdgeScratch&) {
    std::atomic<long long> spins{0};
    const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    std::vector<std::thread> busy;
    for (int t = 0; t < 16; ++t) {
        busy.emplace_back([&] {
            while (std::chrono::steady_clock::now() < until) spins.fetch_add(1, std::memory_order_relaxed);
        });
    }
    for (std::thread& t : busy) t.join();
}

}  // namespace day38
