// The order a test process runs a gate's cases in: the cases that hold the
// GPU exclusively together at the end, everything else as declared.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/day.h"

namespace {

grading::DayGate gateOf(const std::vector<std::pair<std::string, bool>>& cases) {
    grading::DayGate g{grading::GateSpec("g"), {}};
    for (const auto& [name, exclusiveGpu] : cases) {
        grading::GateCase c;
        c.name = name;
        c.exclusiveGpu = exclusiveGpu;
        g.cases.push_back(c);
    }
    return g;
}

std::vector<std::string> names(const std::vector<const grading::GateCase*>& order) {
    std::vector<std::string> out;
    for (const grading::GateCase* c : order) out.push_back(c->name);
    return out;
}

TEST(RunOrder, CasesHoldingTheGpuComeLastEachGroupInDeclaredOrder) {
    const grading::DayGate g = gateOf({{"thread_word_graph", false}, {"thread_chain", true}, {"thread_star", false},
                                       {"thread_grid", true}, {"warp_word_graph", false}, {"warp_chain", true}});
    EXPECT_THAT(names(grading::runOrder(g)),
                ::testing::ElementsAre("thread_word_graph", "thread_star", "warp_word_graph", "thread_chain",
                                       "thread_grid", "warp_chain"));
}

TEST(RunOrder, PointsIntoTheGateItself) {
    const grading::DayGate g = gateOf({{"a", true}, {"b", false}});
    const auto order = grading::runOrder(g);
    ASSERT_EQ(order.size(), 2u);
    EXPECT_EQ(order[0], &g.cases[1]);
    EXPECT_EQ(order[1], &g.cases[0]);
}

TEST(RunOrder, NoCaseHoldingTheGpuKeepsTheDeclaredOrder) {
    const grading::DayGate g = gateOf({{"c", false}, {"a", false}, {"b", false}});
    EXPECT_THAT(names(grading::runOrder(g)), ::testing::ElementsAre("c", "a", "b"));
    EXPECT_TRUE(grading::runOrder(gateOf({})).empty());
}

}  // namespace
