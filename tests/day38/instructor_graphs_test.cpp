// The instructor's own graphs (GRADING_DAY38_GRAPHS), loaded on every
// machine, GPU or not: a file that does not load fails here with the
// loader's message (file and line), before any GPU test would need it.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <string>

#include "graph.h"

namespace {

TEST(InstructorGraphs, EveryGraphNamedAtConfigureTimeLoads) {
    std::ifstream list(DAY38_EXTRA_GRAPHS_FILE);
    ASSERT_TRUE(list) << "no list of instructor graphs at " << DAY38_EXTRA_GRAPHS_FILE;
    int files = 0;
    for (std::string path; std::getline(list, path);) {
        if (path.empty()) continue;
        ++files;
        const grading::Expected<grading::Graph> g = grading::loadAnyGraph(path);
        EXPECT_TRUE(g.ok()) << g.error();
        if (g) std::cout << path << ": " << g->vertexCount << " vertices, " << g->edgeCount << " edges\n";
    }
    std::cout << files << " instructor graph file(s) (GRADING_DAY38_GRAPHS)\n";
}

}  // namespace
