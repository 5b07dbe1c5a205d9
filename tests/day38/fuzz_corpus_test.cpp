// The graph fuzzer's corpus (tests/fuzz-corpus/, the inputs it found worth
// keeping), read through the loaders on every run: each gives a graph or a
// message, and a course-format graph reads back the same after writing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "graph.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

TEST(GraphFuzzCorpus, EveryKeptInputLoadsOrFailsWithAMessage) {
    const std::filesystem::path dir = std::filesystem::path(GRADING_DAY_TESTS_DIR) / "fuzz-corpus";
    int inputs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (!entry.is_regular_file() || entry.path().filename() == "README.md") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        const std::string s = bytes.str();
        SCOPED_TRACE(entry.path().filename().string());
        EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size()), 0);
        ++inputs;
    }
    EXPECT_GT(inputs, 0) << "the corpus in " << dir << " is empty";
}

}  // namespace
