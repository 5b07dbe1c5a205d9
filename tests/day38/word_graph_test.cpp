// The committed word graph: its SHA-256 provenance, its shape, that the
// generator reproduces it from the recorded headers, and the rule itself on a
// hand-made header.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "graph.h"
#include "harness/sha256.h"
#include "word_graph_builder.h"

namespace grading {
namespace {

const std::string kDataFile = std::string(GRADING_COURSE_DIR) + "/data/word-graph.txt";

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The "# input: <header> sha256 <hex>" lines, in file order.
std::vector<std::pair<std::string, std::string>> recordedInputs(const Graph& g) {
    std::vector<std::pair<std::string, std::string>> inputs;
    for (const std::string& c : g.comments) {
        std::istringstream line(c);
        std::string key, header, algorithm, hex;
        if (line >> key >> header >> algorithm >> hex && key == "input:" && algorithm == "sha256") {
            inputs.emplace_back(header, hex);
        }
    }
    return inputs;
}

TEST(Sha256, KnownVectors) {
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // 56 bytes: the length no longer fits the first block.
    EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256File("/nonexistent/word-graph-input"), "");
}

TEST(WordGraph, CommittedFileHasTheCourseShape) {
    const Expected<Graph> loaded = loadGraph(kDataFile);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    const Graph& g = *loaded;
    const DegreeStats stats = degreeStats(g);

    EXPECT_GE(g.vertexCount, 2500);
    EXPECT_EQ(g.word(stats.hub), "the");
    EXPECT_GE(stats.maxDegree, 500);
    EXPECT_LE(stats.median, 5);
    EXPECT_TRUE(std::is_sorted(g.words.begin(), g.words.end()));
    EXPECT_EQ(std::adjacent_find(g.words.begin(), g.words.end()), g.words.end());
    EXPECT_TRUE(std::is_sorted(g.edges.begin(), g.edges.end()));
    for (const auto& [u, v] : g.edges) ASSERT_LT(u, v);

    EXPECT_EQ(commentValue(g, "generator"), "harness/day38/tools/make_word_graph");
    EXPECT_EQ(commentValue(g, "vertices"), std::to_string(g.vertexCount));
    EXPECT_EQ(commentValue(g, "edges"), std::to_string(g.edgeCount));
    EXPECT_EQ(commentValue(g, "hub"), "the " + std::to_string(stats.maxDegree));
    EXPECT_EQ(commentValue(g, "median degree"), std::to_string(stats.median));
    EXPECT_EQ(recordedInputs(g).size(), 3u);

    const int source = findVertex(g, commentValue(g, "default source"));
    ASSERT_GE(source, 0) << "default source \"" << commentValue(g, "default source") << "\" is no vertex";
    const int levels = bfsHost(g, source).levels();
    EXPECT_EQ(std::to_string(levels), commentValue(g, "default source levels"));
    EXPECT_GE(levels, 10);
}

TEST(WordGraph, RegeneratesByteForByte) {
    const Expected<Graph> loaded = loadGraph(kDataFile);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    WordGraphInput input;
    input.includeDir = GRADING_CUDA_INCLUDE_DIR;
    for (const auto& [header, recorded] : recordedInputs(*loaded)) {
        const std::string path = input.includeDir + "/" + header;
        const std::string actual = sha256File(path);
        if (actual.empty()) GTEST_SKIP() << path << " is missing, so the graph cannot be regenerated";
        if (actual != recorded) {
            GTEST_SKIP() << path << " differs from the committed graph's input (sha256 " << actual
                         << ", recorded " << recorded << ")";
        }
        input.headers.push_back(header);
    }
    ASSERT_FALSE(input.headers.empty());

    const Expected<std::string> text = buildWordGraphText(input);
    ASSERT_TRUE(text.ok()) << text.error();
    EXPECT_TRUE(*text == readBytes(kDataFile))
        << "rerun make_word_graph --out reference/day38/data/word-graph.txt";
}

class WordGraphRule : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("word_graph_rule_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
        std::ofstream(dir_ / "tiny.h", std::ios::binary) <<
            "#define CUDA_VERSION 12040\n"
            "/* Alpha beta, alpha BETA. */\n"    // alpha-beta twice, case folded
            "// ALPHA Beta\n"                    // third time: joined
            "/* gamma\n   delta */\n"            // a comment spans lines
            "// gamma delta\n"                   // gamma-delta twice only
            "int gamma_delta = 0;\n"             // code is not comment text
            "const char* s = \"// gamma delta\";\n"  // nor is a string
            "// beta\n// gamma\n// beta\n// gamma\n"  // no pair across comments
            "/* epsilon zeta */ /* epsilon zeta */ // epsilon zeta\n"
            "/// the the the the\n";             // a word is not its own neighbour
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // An empty graph on failure, so the comparisons that follow fail cleanly.
    Graph build(int minCount) {
        const Expected<std::string> text = buildWordGraphText({dir_.string(), {"tiny.h"}, minCount});
        if (!text) {
            ADD_FAILURE() << text.error();
            return {};
        }
        std::istringstream in(*text);
        Expected<Graph> g = parseGraph(in, "tiny");
        if (!g) {
            ADD_FAILURE() << g.error();
            return {};
        }
        return std::move(g).value();
    }

    std::filesystem::path dir_;
};

TEST_F(WordGraphRule, JoinsOnlyPairsSeenEnoughTimesInOneComment) {
    const Graph g = build(3);
    EXPECT_EQ(g.words, (std::vector<std::string>{"alpha", "beta", "epsilon", "zeta"}));
    EXPECT_EQ(g.edges, (std::vector<std::pair<int, int>>{{0, 1}, {2, 3}}));
    EXPECT_EQ(commentValue(g, "toolkit"), "CUDA 12.4");
    EXPECT_EQ(commentValue(g, "input"), "tiny.h sha256 " + sha256File((dir_ / "tiny.h").string()));
    EXPECT_EQ(commentValue(g, "default source"), "alpha");  // all tie at 2 levels
    EXPECT_EQ(commentValue(g, "default source levels"), "2");
}

TEST_F(WordGraphRule, LowerThresholdJoinsTheCommentPairOnly) {
    const Graph g = build(2);
    EXPECT_EQ(g.words, (std::vector<std::string>{"alpha", "beta", "delta", "epsilon", "gamma", "zeta"}));
    EXPECT_EQ(g.edges, (std::vector<std::pair<int, int>>{{0, 1}, {2, 4}, {3, 5}}));
}

TEST_F(WordGraphRule, MissingHeaderIsAnErrorNamingIt) {
    const Expected<std::string> text = buildWordGraphText({dir_.string(), {"tiny.h", "absent.h"}});
    ASSERT_FALSE(text.ok());
    EXPECT_NE(text.error().find((dir_ / "absent.h").string()), std::string::npos) << text.error();
}

}  // namespace
}  // namespace grading
