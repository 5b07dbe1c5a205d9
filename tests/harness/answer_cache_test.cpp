// The class-wide answer cache: an answer is computed once and read back by
// later processes; without GRADING_ANSWER_CACHE nothing is kept; a file that
// is not the answer asked for (another key, cut short, too long) is computed again.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/answer_cache.h"
#include "harness/runner_client.h"

namespace grading {
namespace {

class AnswerCache : public ::testing::Test {
protected:
    void SetUp() override { setenv("GRADING_ANSWER_CACHE", dir_.path().c_str(), 1); }
    void TearDown() override { unsetenv("GRADING_ANSWER_CACHE"); }

    // The answer for `key`, counting the times it was computed.
    std::vector<double> answer(const std::string& key, double value = 1.5) {
        return answerOnce<double>(key, [&] {
            ++computed_;
            return std::vector<double>{value, -value, 0.0};
        });
    }
    // The one file the cache holds.
    std::string onlyFile() const {
        std::string found;
        for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
            EXPECT_TRUE(found.empty()) << "more than one file: " << found << ", " << entry.path();
            found = entry.path();
        }
        return found;
    }

    TempDir dir_;
    int computed_ = 0;
};

TEST_F(AnswerCache, AnAnswerIsComputedOnceAndReadBackAfter) {
    const std::vector<double> first = answer("heat, n 4");
    const std::vector<double> again = answer("heat, n 4", 99.0);  // would compute something else
    EXPECT_EQ(computed_, 1);
    EXPECT_EQ(again, first);
    EXPECT_EQ(again, (std::vector<double>{1.5, -1.5, 0.0}));
    answer("heat, n 5", 2.0);
    EXPECT_EQ(computed_, 2) << "another key is another answer";
}

TEST_F(AnswerCache, ALaterProcessReadsWhatTheFirstComputed) {
    const pid_t first = fork();
    if (first == 0) {
        const std::vector<uint64_t> kept = answerOnce<uint64_t>("words", [] { return std::vector<uint64_t>{7, 8}; });
        _exit(kept == std::vector<uint64_t>{7, 8} ? 0 : 1);
    }
    int status = 0;
    waitpid(first, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    bool computed = false;
    const std::vector<uint64_t> read = answerOnce<uint64_t>("words", [&] {
        computed = true;
        return std::vector<uint64_t>{};
    });
    EXPECT_FALSE(computed);
    EXPECT_EQ(read, (std::vector<uint64_t>{7, 8}));
}

TEST_F(AnswerCache, WithoutTheFolderEveryCallComputes) {
    unsetenv("GRADING_ANSWER_CACHE");
    answer("heat");
    answer("heat");
    EXPECT_EQ(computed_, 2);
    EXPECT_TRUE(std::filesystem::is_empty(dir_.path()));
}

TEST_F(AnswerCache, AFileThatIsNotTheAnswerIsComputedAgain) {
    answer("heat");
    const std::string file = onlyFile();
    std::string kept;
    {
        std::ifstream in(file, std::ios::binary);
        kept.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const auto rewrite = [&](const std::string& bytes) {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out << bytes;
    };
    rewrite(kept.substr(0, kept.size() - 1));  // cut short
    EXPECT_EQ(answer("heat", 2.0), (std::vector<double>{2.0, -2.0, 0.0}));
    rewrite(kept + "x");  // longer than it says
    EXPECT_EQ(answer("heat", 2.5), (std::vector<double>{2.5, -2.5, 0.0}));
    const size_t keyAt = kept.find("heat\n");
    ASSERT_NE(keyAt, std::string::npos);
    rewrite(kept.substr(0, keyAt) + "cold\n" + kept.substr(keyAt + 5));  // another key's answer under this name
    EXPECT_EQ(answer("heat", 3.0), (std::vector<double>{3.0, -3.0, 0.0}));
    EXPECT_EQ(computed_, 4);
    EXPECT_EQ(answer("heat", 4.0), (std::vector<double>{3.0, -3.0, 0.0})) << "the answer computed again was kept";
}

TEST(ContentKey, NamesTheContentsNotWhereTheyAre) {
    std::vector<float> grid(1000, 0.25f);
    const std::string key = contentKey(grid);
    EXPECT_EQ(key.size(), 16u);
    EXPECT_EQ(contentKey(std::vector<float>(grid)), key);
    grid[999] = 0.5f;
    EXPECT_NE(contentKey(grid), key) << "the last word counts";
    grid[999] = 0.25f;
    grid.push_back(0.0f);
    EXPECT_NE(contentKey(grid), key) << "the length counts";
    const char text[] = "abc";  // a tail shorter than a word
    EXPECT_NE(contentKey(text, 2), contentKey(text, 3));
}

}  // namespace
}  // namespace grading
