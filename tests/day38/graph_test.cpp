// The course graph format: every loader error with its exact message (file
// and line), CSR layout, the writer round trip, the host BFS and statistics
// every GPU search is judged against, and the seeded generators.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cases.h"
#include "graph.h"
#include "graph_generators.h"
#include "harness/runner_client.h"

namespace grading {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Expected<Graph> parse(const std::string& text, const std::string& name = "g.txt") {
    std::istringstream in(text);
    return parseGraph(in, name);
}

std::string parseError(const std::string& text) {
    const Expected<Graph> g = parse(text);
    return g ? "(parsed without error)" : g.error();
}

// Vertices reachable from `source`, whatever BFS order.
int componentSize(const Graph& g, int source) { return bfsHost(g, source).reached(); }

// ---------------------------------------------------------------- loader errors

TEST(GraphLoad, MissingFileSaysCannotOpenWithThePath) {
    const Expected<Graph> g = loadGraph("/nonexistent/dir/graph.txt");
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error(), "cannot open /nonexistent/dir/graph.txt");
}

TEST(GraphLoad, EmptyFileIsABadHeader) {
    EXPECT_EQ(parseError(""), "g.txt: bad header line: the file holds no data");
}

TEST(GraphLoad, FileOfOnlyCommentsAndBlanksIsABadHeader) {
    EXPECT_EQ(parseError("# nothing here\n\n# still nothing\n"),
              "g.txt: bad header line: the file holds no data");
}

TEST(GraphLoad, NonNumericHeaderIsRejectedWithItsLine) {
    EXPECT_EQ(parseError("three 2\n"),
              "g.txt:1: bad header line: want \"V E\" with V > 0 and E >= 0, got \"three 2\"");
    EXPECT_EQ(parseError("3\n"),
              "g.txt:1: bad header line: want \"V E\" with V > 0 and E >= 0, got \"3\"");
}

TEST(GraphLoad, ZeroOrNegativeVertexCountIsRejected) {
    EXPECT_EQ(parseError("0 0\n"),
              "g.txt:1: bad header line: want \"V E\" with V > 0 and E >= 0, got \"0 0\"");
    EXPECT_EQ(parseError("-2 1\n"),
              "g.txt:1: bad header line: want \"V E\" with V > 0 and E >= 0, got \"-2 1\"");
}

TEST(GraphLoad, NegativeEdgeCountIsRejected) {
    EXPECT_EQ(parseError("3 -1\na\nb\nc\n"),
              "g.txt:1: bad header line: want \"V E\" with V > 0 and E >= 0, got \"3 -1\"");
}

TEST(GraphLoad, HeaderLineNumberCountsSkippedCommentAndBlankLines) {
    EXPECT_EQ(parseError("# provenance\n\nx y\n"),
              "g.txt:3: bad header line: want \"V E\" with V > 0 and E >= 0, got \"x y\"");
}

TEST(GraphLoad, RunningOutOfLabelsNamesTheMissingIndex) {
    EXPECT_EQ(parseError("3 0\nalpha\nbeta\n"),
              "g.txt: ran out of labels at 2 (the header promised 3)");
    // (Comment lines are bytes too: enough of them pass the header's byte check.)
    EXPECT_EQ(parseError("2 0\n# padding\n"), "g.txt: ran out of labels at 0 (the header promised 2)");
}

// A header is held to the bytes that follow it before anything is allocated:
// 14 bytes cannot hold a billion labels.
TEST(GraphLoad, AHeaderPromisingMoreThanTheFileHoldsFailsAtOnce) {
    EXPECT_EQ(parseError("1000000000 0\n"),
              "g.txt:1: bad header line: it promises 1000000000 labels and 0 edges, at least 2000000000 bytes, but "
              "only 0 bytes follow");
    EXPECT_EQ(parseError("2 1000000\na\nb\n0 1\n"),
              "g.txt:1: bad header line: it promises 2 labels and 1000000 edges, at least 4000004 bytes, but only 8 "
              "bytes follow");
}

TEST(GraphLoad, AMatrixMarketHeaderPromisingTooMuchFailsAtOnce) {
    std::istringstream huge("%%MatrixMarket matrix coordinate pattern general\n2000000000 2000000000 1\n1 2\n");
    EXPECT_EQ(parseMatrixMarket(huge, "m.mtx").error(),
              "m.mtx:2: bad size line: 2000000000 x 2000000000 declares more than the 67108864 vertices graded");
    std::istringstream many("%%MatrixMarket matrix coordinate pattern general\n10 10 4000000000000\n1 2\n");
    EXPECT_EQ(parseMatrixMarket(many, "m.mtx").error(),
              "m.mtx:2: bad size line: it promises 4000000000000 entries, at least 4 bytes each, but only 4 bytes "
              "follow");
}

// A label must read back the same: a stray carriage return would not.
TEST(GraphLoad, ALabelWithAControlCharacterIsRejected) {
    EXPECT_EQ(parseError("2 1\na\n\r\r\n0 1\n"), "g.txt:3: label 1 holds a control character");
    EXPECT_EQ(parseError("1 0\nbe\x07ll\n"), "g.txt:2: label 0 holds a control character");
}

TEST(GraphLoad, LabelOf63CharactersIsAccepted) {
    const std::string label(63, 'w');
    const Expected<Graph> g = parse("1 0\n" + label + "\n");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(g->word(0), label);
}

TEST(GraphLoad, LabelOf64CharactersIsRejected) {
    EXPECT_EQ(parseError("2 0\nok\n" + std::string(64, 'w') + "\n"),
              "g.txt:3: label 1 is empty or too long (1 to 63 characters)");
}

TEST(GraphLoad, EmptyLabelIsRejected) {
    // A line of spaces is not blank, and its first token is empty.
    EXPECT_EQ(parseError("2 0\n   \nok\n"),
              "g.txt:2: label 0 is empty or too long (1 to 63 characters)");
}

TEST(GraphLoad, LabelIsTheFirstTokenOfItsLine) {
    const Expected<Graph> g = parse("2 1\nfirst extra words\nsecond\t7\n0 1\n");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_THAT(g->words, ElementsAre("first", "second"));
}

TEST(GraphLoad, UnparsableEdgeIsRejectedWithItsLine) {
    EXPECT_EQ(parseError("2 1\na\nb\n0 x\n"), "g.txt:4: bad edge at index 0: unparsable \"0 x\"");
    EXPECT_EQ(parseError("2 1\na\nb\n1\n#\n"), "g.txt:4: bad edge at index 0: unparsable \"1\"");
}

TEST(GraphLoad, EdgeVertexOutOfRangeIsRejected) {
    EXPECT_EQ(parseError("3 2\na\nb\nc\n0 1\n1 3\n"),
              "g.txt:6: bad edge at index 1: vertex out of range in \"1 3\" (0 to 2)");
    EXPECT_EQ(parseError("3 1\na\nb\nc\n-1 2\n"),
              "g.txt:5: bad edge at index 0: vertex out of range in \"-1 2\" (0 to 2)");
}

TEST(GraphLoad, SelfLoopIsRejected) {
    EXPECT_EQ(parseError("3 2\na\nb\nc\n0 1\n2 2\n"),
              "g.txt:6: bad edge at index 1: self loop at vertex 2");
}

TEST(GraphLoad, FileEndingBeforeAllEdgesIsRejected) {
    EXPECT_EQ(parseError("3 3\na\nb\nc\n0 1\n1 2\n# end\n"),
              "g.txt: bad edge at index 2: the file ended after 2 of 3 edges");
}

TEST(GraphLoad, ErrorsFromAFileNameItsPath) {
    TempDir dir;
    const std::string path = dir.file("broken.txt");
    std::ofstream(path) << "2 1\na\nb\n0 5\n";
    const Expected<Graph> g = loadGraph(path);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error(), path + ":4: bad edge at index 0: vertex out of range in \"0 5\" (0 to 1)");
}

TEST(GraphLoad, CommentsAndBlankLinesAreSkippedAnywhereWithCrlf) {
    const std::string text =
        "# source: test\r\n"
        "\r\n"
        "3 2\r\n"
        "# between labels\r\n"
        "alpha\r\n"
        "\r\n"
        "beta\r\n"
        "gamma\r\n"
        "#between edges\r\n"
        "\r\n"
        "0 1\r\n"
        "# last\r\n"
        "1 2\r\n";
    const Expected<Graph> g = parse(text);
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(g->vertexCount, 3);
    EXPECT_EQ(g->edgeCount, 2);
    EXPECT_THAT(g->words, ElementsAre("alpha", "beta", "gamma"));
    EXPECT_THAT(g->edges, ElementsAre(std::make_pair(0, 1), std::make_pair(1, 2)));
    EXPECT_THAT(g->comments, ElementsAre(" source: test", " between labels", "between edges", " last"));
}

// Found by the fuzzer: a comment ending in two carriage returns kept one,
// which the next read dropped, so the graph did not read back the same.
TEST(GraphLoad, ACommentEndingInSeveralCarriageReturnsReadsBackTheSame) {
    const Expected<Graph> g = parse("# from a tool\r\r\r\n#\r\r\n1 0\nsolo\n");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_THAT(g->comments, ElementsAre(" from a tool", ""));
    std::ostringstream out;
    writeGraph(out, *g);
    const Expected<Graph> back = parse(out.str());
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->comments, g->comments);
}

TEST(GraphLoad, CrlfErrorLineNumbersAndQuotedTextHaveNoCarriageReturn) {
    EXPECT_EQ(parseError("# c\r\n2 1\r\na\r\nb\r\n0 0\r\n"),
              "g.txt:5: bad edge at index 0: self loop at vertex 0");
    EXPECT_EQ(parseError("2 1\r\na\r\nb\r\n0 q\r\n"),
              "g.txt:4: bad edge at index 0: unparsable \"0 q\"");
}

TEST(GraphLoad, ZeroEdgesGivesASingleVertexGraph) {
    const Expected<Graph> g = parse("1 0\nsolo\n");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(g->vertexCount, 1);
    EXPECT_EQ(g->edgeCount, 0);
    EXPECT_THAT(g->rowOffsets, ElementsAre(0, 0));
    EXPECT_THAT(g->colIndices, IsEmpty());
    const HostBfs bfs = bfsHost(*g, 0);
    EXPECT_EQ(bfs.reached(), 1);
    EXPECT_EQ(bfs.levels(), 1);
}

// ---------------------------------------------------------------- CSR

TEST(GraphCsr, TriangleInFileOrderBothDirections) {
    // Each edge lands in both rows, in the order the file lists it.
    const Graph g = buildCsr(3, {"a", "b", "c"}, {{2, 0}, {1, 0}, {1, 2}});
    EXPECT_THAT(g.rowOffsets, ElementsAre(0, 2, 4, 6));
    EXPECT_THAT(g.colIndices, ElementsAre(2, 1, 0, 2, 0, 1));
    EXPECT_EQ(g.degree(0), 2);
}

TEST(GraphCsr, PathWithIsolatedVertex) {
    const Graph g = buildCsr(5, {"a", "b", "c", "d", "e"}, {{0, 1}, {3, 1}, {1, 4}});
    EXPECT_THAT(g.rowOffsets, ElementsAre(0, 1, 4, 4, 5, 6));
    EXPECT_THAT(g.colIndices, ElementsAre(1, 0, 3, 4, 1, 1));
    EXPECT_EQ(g.degree(2), 0);
    EXPECT_EQ(g.edgeCount, 3);
    EXPECT_THAT(g.edges, ElementsAre(std::make_pair(0, 1), std::make_pair(3, 1), std::make_pair(1, 4)));
}

TEST(GraphCsr, ParsedFileMatchesBuildCsr) {
    const Expected<Graph> g = parse("3 3\na\nb\nc\n2 0\n1 0\n1 2\n");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_THAT(g->rowOffsets, ElementsAre(0, 2, 4, 6));
    EXPECT_THAT(g->colIndices, ElementsAre(2, 1, 0, 2, 0, 1));
}

TEST(GraphCsr, FindVertexByLabel) {
    const Graph g = buildCsr(3, {"cold", "cord", "word"}, {{0, 1}, {1, 2}});
    EXPECT_EQ(findVertex(g, "word"), 2);
    EXPECT_EQ(findVertex(g, "warm"), -1);
}

// ---------------------------------------------------------------- writer

TEST(GraphWrite, WritesTheCourseFormatCommentsFirst) {
    Graph g = buildCsr(3, {"a", "b", "c"}, {{0, 1}, {2, 1}});
    g.comments = {" default source: a", "raw"};
    std::ostringstream out;
    writeGraph(out, g);
    EXPECT_EQ(out.str(), "# default source: a\n#raw\n3 2\na\nb\nc\n0 1\n2 1\n");
}

TEST(GraphWrite, RoundTripsExactly) {
    const std::string text = "# made by hand\n#\n4 3\nw\nx\ny\nz\n3 0\n0 1\n2 1\n";
    const Expected<Graph> first = parse(text);
    ASSERT_TRUE(first.ok()) << first.error();
    std::ostringstream out;
    writeGraph(out, *first);
    EXPECT_EQ(out.str(), text);

    const Expected<Graph> second = parse(out.str());
    ASSERT_TRUE(second.ok()) << second.error();
    EXPECT_EQ(second->vertexCount, first->vertexCount);
    EXPECT_EQ(second->edgeCount, first->edgeCount);
    EXPECT_EQ(second->words, first->words);
    EXPECT_EQ(second->edges, first->edges);
    EXPECT_EQ(second->rowOffsets, first->rowOffsets);
    EXPECT_EQ(second->colIndices, first->colIndices);
    EXPECT_EQ(second->comments, first->comments);
}

TEST(GraphWrite, GeneratedGraphRoundTripsThroughAFile) {
    Graph g = rmatGraph(7, 4, 99);
    g.comments = {" generated: rmat, seed 99"};
    TempDir dir;
    ASSERT_TRUE(saveGraph(dir.file("rmat.txt"), g));
    const Expected<Graph> back = loadGraph(dir.file("rmat.txt"));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->words, g.words);
    EXPECT_EQ(back->edges, g.edges);
    EXPECT_EQ(back->rowOffsets, g.rowOffsets);
    EXPECT_EQ(back->colIndices, g.colIndices);
    EXPECT_EQ(back->comments, g.comments);
}

TEST(GraphWrite, SaveToAMissingDirectoryFails) {
    EXPECT_FALSE(saveGraph("/nonexistent/dir/g.txt", chainGraph(2)));
}

// ---------------------------------------------------------------- host BFS

TEST(GraphBfs, ChainFromOneEnd) {
    const HostBfs bfs = bfsHost(chainGraph(4), 0);
    EXPECT_THAT(bfs.dist, ElementsAre(0, 1, 2, 3));
    EXPECT_THAT(bfs.order, ElementsAre(0, 1, 2, 3));
    EXPECT_THAT(bfs.levelStart, ElementsAre(0, 1, 2, 3, 4));
    EXPECT_EQ(bfs.levels(), 4);
    EXPECT_EQ(bfs.reached(), 4);
}

TEST(GraphBfs, ChainFromTheMiddle) {
    const HostBfs bfs = bfsHost(chainGraph(4), 1);
    EXPECT_THAT(bfs.dist, ElementsAre(1, 0, 1, 2));
    EXPECT_THAT(bfs.order, ElementsAre(1, 0, 2, 3));
    EXPECT_THAT(bfs.levelStart, ElementsAre(0, 1, 3, 4));
    EXPECT_EQ(bfs.levels(), 3);
    EXPECT_THAT(bfs.frontier(1), ElementsAre(0, 2));
}

TEST(GraphBfs, StarFromALeaf) {
    const HostBfs bfs = bfsHost(starGraph(3), 2);
    EXPECT_THAT(bfs.dist, ElementsAre(1, 2, 0, 2));
    EXPECT_THAT(bfs.order, ElementsAre(2, 0, 1, 3));
    EXPECT_THAT(bfs.levelStart, ElementsAre(0, 1, 2, 4));
    EXPECT_EQ(bfs.levels(), 3);
    EXPECT_EQ(bfs.reached(), 4);
    EXPECT_THAT(bfs.frontier(2), ElementsAre(1, 3));
}

TEST(GraphBfs, DisconnectedGraphLeavesOthersUnreached) {
    const Graph g = buildCsr(5, {"a", "b", "c", "d", "e"}, {{0, 1}, {3, 4}});
    const HostBfs bfs = bfsHost(g, 0);
    EXPECT_THAT(bfs.dist, ElementsAre(0, 1, -1, -1, -1));
    EXPECT_THAT(bfs.order, ElementsAre(0, 1));
    EXPECT_THAT(bfs.levelStart, ElementsAre(0, 1, 2));
    EXPECT_EQ(bfs.levels(), 2);
    EXPECT_EQ(bfs.reached(), 2);

    const HostBfs other = bfsHost(g, 4);
    EXPECT_THAT(other.dist, ElementsAre(-1, -1, -1, 1, 0));
    EXPECT_THAT(other.order, ElementsAre(4, 3));
}

TEST(GraphBfs, LevelStatsOnAStarFromALeaf) {
    const Graph g = starGraph(40);
    const std::vector<LevelStats> levels = levelStats(g, bfsHost(g, 1));
    ASSERT_EQ(levels.size(), 3u);
    EXPECT_EQ(levels[1].frontier, 1);
    EXPECT_EQ(levels[1].busiest, 0);
    EXPECT_EQ(levels[1].maxDegree, 40);
    EXPECT_EQ(levels[1].edges, 40);
    EXPECT_EQ(levels[1].laneSlots, 32 * 40);
    EXPECT_EQ(levels[2].frontier, 39);
    EXPECT_EQ(levels[2].warps, 2);
    EXPECT_EQ(levels[2].laneSlots, 2 * 32);
}

TEST(GraphBfs, LaneSlotsChargeEachWarpItsWidestDegree) {
    std::vector<int> degrees(33, 1);
    degrees[5] = 7;
    EXPECT_EQ(laneSlotsThreadPerVertex(degrees), 32 * 7 + 32 * 1);
    EXPECT_EQ(laneSlotsThreadPerVertex({}), 0);
}

TEST(GraphBfs, WalkChecksumXorsNeighboursWithTheRepeat) {
    const Graph g = starGraph(3);  // 0's neighbours are 1, 2, 3
    EXPECT_EQ(walkChecksum(g, 0, 1), 1u + 2u + 3u);
    EXPECT_EQ(walkChecksum(g, 0, 2), (1u + 2u + 3u) + ((1u ^ 1u) + (2u ^ 1u) + (3u ^ 1u)));
    EXPECT_EQ(walkChecksum(g, 2, 0), 0u);
}

// ---------------------------------------------------------------- comments, stats

TEST(GraphComments, CommentValueFindsTheFirstMatchingKey) {
    Graph g = chainGraph(2);
    g.comments = {" generated: rmat", " default source:   cold", "default source: warm", " empty:",
                  " keyless line"};
    EXPECT_EQ(commentValue(g, "default source"), "cold");
    EXPECT_EQ(commentValue(g, "generated"), "rmat");
    EXPECT_EQ(commentValue(g, "empty"), "");
    EXPECT_EQ(commentValue(g, "default"), "");  // a prefix of a key is not the key
    EXPECT_EQ(commentValue(g, "missing"), "");
}

TEST(GraphComments, CommentValueReadsAParsedFile) {
    const Expected<Graph> g = parse("# default source: beta\r\n2 1\nalpha\nbeta\n0 1\n");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(commentValue(*g, "default source"), "beta");
    EXPECT_EQ(findVertex(*g, commentValue(*g, "default source")), 1);
}

TEST(GraphDegreeStats, ChainUsesTheUpperMedian) {
    const DegreeStats s = degreeStats(chainGraph(4));  // degrees 1 2 2 1
    EXPECT_EQ(s.vertices, 4);
    EXPECT_EQ(s.edges, 3);
    EXPECT_EQ(s.csrEntries, 6);
    EXPECT_EQ(s.maxDegree, 2);
    EXPECT_EQ(s.hub, 1);  // first of the two degree-2 vertices
    EXPECT_EQ(s.median, 2);  // sorted[n / 2] of 1 1 2 2
    EXPECT_EQ(s.degreeOne, 2);
}

TEST(GraphDegreeStats, HubIsTheFirstVertexOfMaxDegree) {
    // Degrees: 0:2 1:2 2:3 3:2 4:3 5:1 6:1 7:0.
    const Graph g = buildCsr(8, {"a", "b", "c", "d", "e", "f", "g", "h"},
                             {{2, 0}, {2, 1}, {2, 3}, {4, 0}, {4, 1}, {4, 3}, {5, 6}});
    const DegreeStats s = degreeStats(g);
    EXPECT_EQ(s.maxDegree, 3);
    EXPECT_EQ(s.hub, 2);
    EXPECT_EQ(s.median, 2);  // 0 1 1 2 2 2 3 3
    EXPECT_EQ(s.degreeOne, 2);
    EXPECT_EQ(s.csrEntries, 14);
}

TEST(GraphDegreeStats, StarHubAndLeaves) {
    const DegreeStats s = degreeStats(starGraph(9));
    EXPECT_EQ(s.maxDegree, 9);
    EXPECT_EQ(s.hub, 0);
    EXPECT_EQ(s.median, 1);
    EXPECT_EQ(s.degreeOne, 9);
}

// ---------------------------------------------------------------- generators

void expectSimple(const Graph& g) {
    std::set<std::pair<int, int>> seen;
    for (const auto& [u, v] : g.edges) {
        ASSERT_NE(u, v) << "self loop";
        ASSERT_TRUE(seen.insert({std::min(u, v), std::max(u, v)}).second)
            << "duplicate edge " << u << " " << v;
    }
}

TEST(GraphGenerators, ChainShape) {
    const Graph g = chainGraph(5);
    EXPECT_EQ(g.vertexCount, 5);
    EXPECT_THAT(g.edges, ElementsAre(std::make_pair(0, 1), std::make_pair(1, 2), std::make_pair(2, 3),
                                     std::make_pair(3, 4)));
    EXPECT_THAT(g.words, ElementsAre("v0", "v1", "v2", "v3", "v4"));
    EXPECT_EQ(bfsHost(g, 0).levels(), 5);
}

TEST(GraphGenerators, StarShape) {
    const Graph g = starGraph(6);
    EXPECT_EQ(g.vertexCount, 7);
    EXPECT_EQ(g.edgeCount, 6);
    EXPECT_EQ(g.degree(0), 6);
    for (int v = 1; v <= 6; ++v) EXPECT_EQ(g.degree(v), 1) << v;
}

TEST(GraphGenerators, GridShape) {
    const Graph g = gridGraph(3, 2);  // 0 1 2 / 3 4 5
    EXPECT_EQ(g.vertexCount, 6);
    EXPECT_EQ(g.edgeCount, 7);
    EXPECT_EQ(g.degree(0), 2);
    EXPECT_EQ(g.degree(1), 3);
    std::vector<int> around4(g.colIndices.begin() + g.rowOffsets[4], g.colIndices.begin() + g.rowOffsets[5]);
    std::sort(around4.begin(), around4.end());
    EXPECT_THAT(around4, ElementsAre(1, 3, 5));
    EXPECT_EQ(bfsHost(g, 0).levels(), 3 + 2 - 1);
    expectSimple(g);
}

TEST(GraphGenerators, BipartiteShape) {
    const Graph g = bipartiteGraph(3, 2);  // source 0, A = 1..3, B = 4..5
    EXPECT_EQ(g.vertexCount, 6);
    EXPECT_EQ(g.edgeCount, 3 + 3 * 2);
    EXPECT_EQ(g.degree(0), 3);
    EXPECT_EQ(g.degree(1), 3);
    EXPECT_EQ(g.degree(4), 3);
    const HostBfs bfs = bfsHost(g, 0);
    EXPECT_THAT(bfs.levelStart, ElementsAre(0, 1, 4, 6));
    expectSimple(g);
}

TEST(GraphGenerators, WideShape) {
    const Graph g = wideGraph(3, 2);  // source 0, A = 1..3, leaves 4..9, each its own
    EXPECT_EQ(g.vertexCount, 10);
    EXPECT_EQ(g.edgeCount, 3 + 3 * 2);
    EXPECT_EQ(g.degree(0), 3);
    EXPECT_EQ(g.degree(1), 3);
    EXPECT_EQ(g.degree(9), 1);
    EXPECT_THAT(bfsHost(g, 0).levelStart, ElementsAre(0, 1, 4, 10));
    expectSimple(g);
}

TEST(GraphGenerators, TheWideCaseIsPastBothLimits) {
    // A frontier of more than 2^16 vertices, a level over more than 2^21 edges.
    const int edgesOfLevelOne = day38::cases::kWideFrontier * (day38::cases::kWideFan + 1);
    EXPECT_GT(day38::cases::kWideFrontier, 1 << 16);
    EXPECT_GT(edgesOfLevelOne, 1 << 21);
}

TEST(GraphGenerators, SingleVertex) {
    const Graph g = singleVertexGraph();
    EXPECT_EQ(g.vertexCount, 1);
    EXPECT_EQ(g.edgeCount, 0);
    EXPECT_THAT(g.rowOffsets, ElementsAre(0, 0));
}

TEST(GraphGenerators, RmatIsDeterministicForASeed) {
    const Graph a = rmatGraph(9, 8, 42);
    const Graph b = rmatGraph(9, 8, 42);
    EXPECT_EQ(a.vertexCount, 512);
    EXPECT_EQ(a.edges, b.edges);
    EXPECT_EQ(a.colIndices, b.colIndices);
}

TEST(GraphGenerators, RmatDiffersForAnotherSeed) {
    EXPECT_NE(rmatGraph(9, 8, 42).edges, rmatGraph(9, 8, 43).edges);
}

TEST(GraphGenerators, RmatHasNoSelfLoopsOrDuplicatesAndIsSkewed) {
    const Graph g = rmatGraph(10, 8, 7);
    expectSimple(g);
    EXPECT_GT(g.edgeCount, 1024);
    EXPECT_LE(g.edgeCount, 8 * 1024);
    const DegreeStats s = degreeStats(g);
    EXPECT_GT(s.maxDegree, 10 * (s.median + 1));  // scale-free: one hub far above the median
}

TEST(GraphGenerators, ComponentsGraphHasIsolatedVerticesAndZeroInTheLargest) {
    for (uint64_t seed : {1u, 12u, 17u, 75u, 2024u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const Graph g = componentsGraph(seed);
        int isolated = 0;
        for (int v = 0; v < g.vertexCount; ++v) isolated += g.degree(v) == 0;
        EXPECT_GT(isolated, 0);

        std::vector<bool> seen(g.vertexCount, false);
        int largest = 0;
        int components = 0;
        for (int v = 0; v < g.vertexCount; ++v) {
            if (seen[v]) continue;
            const HostBfs bfs = bfsHost(g, v);
            for (int u : bfs.order) seen[u] = true;
            largest = std::max(largest, bfs.reached());
            ++components;
        }
        EXPECT_EQ(componentSize(g, 0), largest);
        EXPECT_GT(components, 2 + isolated);  // several real components, not one
    }
}

TEST(GraphGenerators, ComponentsGraphCyclesAreRealCyclesNotDuplicateEdges) {
    // Seeds 12, 17 and 75 once closed a "cycle" along an existing tree edge.
    for (uint64_t seed = 0; seed < 200; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const Graph g = componentsGraph(seed);
        expectSimple(g);
        // Tree components have V - 1 edges; the cycled ones one more each.
        EXPECT_EQ(g.edgeCount, g.vertexCount - 25 - 6 + 2);
    }
}

TEST(GraphGenerators, ComponentsGraphIsDeterministicForASeed) {
    EXPECT_EQ(componentsGraph(5).edges, componentsGraph(5).edges);
    EXPECT_NE(componentsGraph(5).edges, componentsGraph(6).edges);
}

TEST(GraphGenerators, HighestDegreeVertexPrefersTheLowestIdOnTies) {
    EXPECT_EQ(highestDegreeVertex(buildCsr(4, {"a", "b", "c", "d"}, {{3, 0}, {3, 1}, {3, 2}})), 3);
    EXPECT_EQ(highestDegreeVertex(buildCsr(5, {"a", "b", "c", "d", "e"},
                                           {{2, 0}, {2, 1}, {2, 3}, {4, 0}, {4, 1}, {4, 3}})),
              2);
    EXPECT_EQ(highestDegreeVertex(buildCsr(4, {"a", "b", "c", "d"}, {{1, 0}, {2, 3}})), 0);
    EXPECT_EQ(highestDegreeVertex(starGraph(5)), 0);
    const Graph r = rmatGraph(9, 8, 3);
    EXPECT_EQ(r.degree(highestDegreeVertex(r)), degreeStats(r).maxDegree);
    EXPECT_EQ(highestDegreeVertex(r), degreeStats(r).hub);
}

// ---- instructor graph files: SNAP edge lists and Matrix Market

TEST(GraphFormats, SnapEdgeListCompactsIdsAndDropsLoopsAndRepeats) {
    std::istringstream in("# Directed graph (each unordered pair only once): demo\n# FromNodeId\tToNodeId\n"
                          "10\t20\n20\t10\n20 30\n7 7\n\n30 10\n");
    const Expected<Graph> g = parseSnapEdgeList(in, "demo.txt");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(g->vertexCount, 3);
    EXPECT_EQ(g->edgeCount, 3);  // 10-20, 20-30, 30-10; the repeat and the loop are dropped
    EXPECT_EQ(g->words, (std::vector<std::string>{"v10", "v20", "v30"}));
    EXPECT_EQ(g->degree(0), 2);
}

TEST(GraphFormats, SnapEdgeListNamesTheBadLine) {
    std::istringstream in("# c\n1 2\n3 x\n");
    EXPECT_EQ(parseSnapEdgeList(in, "s.txt").error(),
              "s.txt:3: bad edge: want two non-negative ids, got \"3 x\"");
    std::istringstream none("# only comments\n");
    EXPECT_EQ(parseSnapEdgeList(none, "s.txt").error(), "s.txt: no edges");
}

TEST(GraphFormats, MatrixMarketIsReadAsAnUndirectedPattern) {
    std::istringstream in("%%MatrixMarket matrix coordinate real symmetric\n% a comment\n4 4 5\n"
                          "1 1 2.0\n2 1 -1\n3 2 -1\n4 3 -1\n1 2 5\n");
    const Expected<Graph> g = parseMatrixMarket(in, "m.mtx");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(g->vertexCount, 4);  // the diagonal entry adds no edge; 1-2 appears twice
    EXPECT_EQ(g->edgeCount, 3);
    EXPECT_EQ(g->words.front(), "v1");
    EXPECT_EQ(bfsHost(*g, 0).levels(), 4);  // the path 1 - 2 - 3 - 4
}

TEST(GraphFormats, MatrixMarketErrorsNameTheLine) {
    std::istringstream notMm("1 2\n");
    EXPECT_EQ(parseMatrixMarket(notMm, "m.mtx").error(),
              "m.mtx:1: not a Matrix Market coordinate file (want \"%%MatrixMarket matrix coordinate ...\")");
    std::istringstream badSize("%%MatrixMarket matrix coordinate pattern general\n3 3\n");
    EXPECT_EQ(parseMatrixMarket(badSize, "m.mtx").error(),
              "m.mtx:2: bad size line: want \"rows cols entries\", got \"3 3\"");
    std::istringstream outOfRange("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n");
    EXPECT_EQ(parseMatrixMarket(outOfRange, "m.mtx").error(),
              "m.mtx:4: bad entry 1: want 1-based \"i j\" within 3 x 3, got \"4 1\"");
    std::istringstream shortFile("%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n% padding\n");
    EXPECT_EQ(parseMatrixMarket(shortFile, "m.mtx").error(), "m.mtx: the file ended after 1 of 3 entries");
}

TEST(GraphFormats, LoadAnyGraphTellsTheThreeFormatsApart) {
    TempDir dir;
    const auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir.file(name)) << text;
        return dir.file(name);
    };
    const Expected<Graph> course = loadAnyGraph(write("course.txt", "# c\n2 1\nhello\nworld\n0 1\n"));
    ASSERT_TRUE(course.ok()) << course.error();
    EXPECT_EQ(course->words, (std::vector<std::string>{"hello", "world"}));
    const Expected<Graph> snap = loadAnyGraph(write("snap.txt", "# SNAP\n5 6\n6 7\n"));
    ASSERT_TRUE(snap.ok()) << snap.error();
    EXPECT_EQ(snap->words, (std::vector<std::string>{"v5", "v6", "v7"}));
    const Expected<Graph> mm = loadAnyGraph(write("m.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n"));
    ASSERT_TRUE(mm.ok()) << mm.error();
    EXPECT_EQ(mm->edgeCount, 1);
    EXPECT_EQ(loadAnyGraph(dir.file("absent.txt")).error(), "cannot open " + dir.file("absent.txt"));
    const Expected<Graph> single = loadAnyGraph(write("one.txt", "1 0\nalone\n"));
    ASSERT_TRUE(single.ok()) << single.error();
    EXPECT_EQ(single->vertexCount, 1);
}

}  // namespace
}  // namespace grading
