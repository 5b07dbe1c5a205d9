// The instructor's own graphs (GRADING_DAY38_GRAPHS), loaded on every
// machine, GPU or not: a file that does not load fails here with the
// loader's message (file and line), before any GPU test would need it.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "graph.h"
#include "harness/day.h"

namespace {

TEST(InstructorGraphs, EveryGraphNamedAtConfigureTimeLoads) {
    int files = 0;
    for (const grading::InstructorFile& file : grading::instructorFiles(DAY38_EXTRA_GRAPHS_FILE)) {
        ++files;
        const grading::Expected<grading::Graph> g = grading::loadAnyGraph(file.path);
        EXPECT_TRUE(g.ok()) << g.error();
        if (g) std::cout << file.path << ": " << g->vertexCount << " vertices, " << g->edgeCount << " edges\n";
    }
    std::cout << files << " instructor graph file(s) (GRADING_DAY38_GRAPHS)\n";
}

}  // namespace
