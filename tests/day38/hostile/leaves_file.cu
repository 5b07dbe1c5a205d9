// fails: none
// passes: 38.distances@edge_word_graph,edge_chain,edge_grid
// Hostile submission: leaves a file for the next call (in its TMPDIR, its
// HOME, /tmp and its working folder) and, when it finds one an earlier call
// left, sabotages the distances. Every call gets a private, empty /tmp and
// HOME that vanish with it, so it never finds one: its trick has no effect
// and it is graded on its (correct) code.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "bfs_mappings.h"
namespace day38 {
static void referenceExpandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                                         const LevelOutput& out, const EdgeScratch& scratch);
}  // namespace day38
#define expandEdgePerThread referenceExpandEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef expandEdgePerThread

namespace {

std::vector<std::string> places() {
    std::vector<std::string> out = {"/tmp/grading-leftover", "grading-leftover"};
    for (const char* var : {"TMPDIR", "HOME"}) {
        if (const char* v = std::getenv(var)) out.push_back(std::string(v) + "/grading-leftover");
    }
    return out;
}

const bool foundLeftover = [] {
    bool found = false;
    for (const std::string& p : places()) found = found || std::ifstream(p).good();
    for (const std::string& p : places()) std::ofstream(p) << "left by an earlier call\n";
    return found;
}();

__global__ void sabotage(int* dist) { dist[0] = -1001; }

}  // namespace

namespace day38 {

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
    if (foundLeftover) sabotage<<<1, 1>>>(out.dist);
}

}  // namespace day38
