// The whole msw.index path on the host, without a GPU: a model of the
// course's search (course/msw.cu's two_phase_on_block and both overloads)
// and of the runner's block snapshots, with the three kernels as plain
// functions. The solution's kernels must pass; each planted bug that can be
// modelled here must fail with the message its plants.cmake entry expects,
// read from that file, so a message and its regex cannot drift apart.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <regex>
#include <sstream>

#include "arrays.h"
#include "cases.h"
#include "gates.h"
#include "msw_host.h"
#include "msw_math.h"

namespace {

namespace proto = msw::protocol;
using msw::grade::IndexCase;

constexpr uint64_t kOnes = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kPoison = 0xCBCBCBCBCBCBCBCBull;  // what GuardedBuffer fills a new block with
constexpr uint64_t kSms = 132;                       // an H200
constexpr uint64_t kThreads = 256;                   // course/msw.cu's block size

// course/msw.cu's grid: one thread per element, capped at a few blocks per SM.
uint64_t gridThreads(uint64_t count, uint64_t blocksPerSm) {
    return std::max<uint64_t>(1, std::min((count + kThreads - 1) / kThreads, kSms * blocksPerSm)) * kThreads;
}

// The kernels and the host arithmetic a runner is built with.
struct Build {
    std::function<void(const uint64_t* a, uint64_t* flags, uint64_t* marks, uint64_t n)> sig;
    std::function<void(uint64_t* p, uint64_t n)> prisoner;
    std::function<void(const uint64_t* tree, uint64_t* section, uint64_t n)> section;
    std::function<uint64_t(uint64_t)> chunkWords = [](uint64_t n) { return msw::chunk_size(n); };
    std::function<uint64_t(uint64_t)> blockWords = [](uint64_t n) { return n == 0 ? 0 : n + 1 + msw::chunk_size(n); };
};

Build solution() {
    Build b;
    b.sig = [](const uint64_t* a, uint64_t* flags, uint64_t* marks, uint64_t n) {
        const uint64_t chunk = msw::chunk_size(n);
        for (uint64_t i = 0; i < n; ++i) {
            flags[i] = a[i] != flags[i] ? 1 : 0;
            if (flags[i]) marks[i / chunk] = 1;
        }
    };
    b.prisoner = [](uint64_t* p, uint64_t n) {
        bool kept = false;
        for (uint64_t i = 0; i < n; ++i) {
            if (p[i] == 0) continue;
            if (kept) p[i] = 0;
            kept = true;
        }
    };
    b.section = [](const uint64_t* tree, uint64_t* section, uint64_t n) {  // atomicMin over the non-zero
        for (uint64_t i = 0; i < n; ++i) {
            if (tree[i] != 0) *section = std::min(*section, i);
        }
    };
    return b;
}

// The runner's find for two_phase, as the host model sees it.
class Simulation {
public:
    explicit Simulation(Build build) : build_(std::move(build)) {}

    proto::FindResult run(const proto::FindRequest& req) {
        const uint64_t n = req.n;
        std::vector<uint64_t> a(n);
        msw::arrays::fill(a.data(), n, req.key);
        const uint64_t blockWords = build_.blockWords(n);
        // Slack past the block stands in for the guard words.
        std::vector<uint64_t> block(blockWords + 64, kPoison);
        proto::FindResult r;
        r.wordStart.push_back(0);
        for (size_t k = 0; k + 1 < req.editStart.size(); ++k) {
            std::vector<uint64_t> b = a;
            for (uint64_t j = req.editStart[k]; j < req.editStart[k + 1]; ++j) b[req.editIndex[j]] = req.editValue[j];
            const uint64_t edits = req.editStart[k + 1] - req.editStart[k];
            r.launchStart.push_back(r.launchKernel.size());
            r.got.push_back(static_cast<int64_t>(search(a, b, block, n, &r, 2 * edits + 2 * (blockWords - n) + 64)));
            if (!req.wrapper.empty() && req.wrapper[k]) {
                std::vector<uint64_t> fresh(blockWords + 64, kPoison);
                r.gotWrapper.push_back(static_cast<int64_t>(search(a, b, fresh, n, nullptr, 0)));
            } else {
                r.gotWrapper.push_back(-1);
            }
        }
        r.launchStart.push_back(r.launchKernel.size());
        return r;
    }

private:
    // course/msw.cu's two_phase_on_block after the copy of b.
    uint64_t search(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, std::vector<uint64_t>& block,
                    uint64_t n, proto::FindResult* r, uint64_t cap) {
        std::copy(b.begin(), b.end(), block.begin());
        const uint64_t chunk = build_.chunkWords(n);
        uint64_t* flags = block.data();
        uint64_t* section = flags + n;
        uint64_t* marks = section + 1;
        *section = kOnes;
        std::fill(marks, marks + chunk, 0);
        const auto launched = [&](int32_t kernel, uint64_t count) {
            if (r == nullptr) return;
            r->launchKernel.push_back(kernel);
            r->launchCount.push_back(count);
            uint64_t nonZero = 0;
            for (uint64_t off = 0, words = build_.blockWords(n); off < words; ++off) {
                if (block[off] == 0) continue;
                if (nonZero++ < cap) {
                    r->wordOffset.push_back(off);
                    r->wordValue.push_back(block[off]);
                }
            }
            r->launchNonZero.push_back(nonZero);
            r->wordStart.push_back(r->wordOffset.size());
        };
        build_.sig(a.data(), flags, marks, n);
        launched(proto::kParSigSqrt, n);
        build_.prisoner(marks, chunk);
        launched(proto::kLeftmostPrisoner, chunk);
        build_.section(marks, section, chunk);
        launched(proto::kSectionDiff, chunk);
        const uint64_t s = *section;
        if (s == kOnes || s >= chunk || s * chunk >= n) return n;
        const uint64_t offset = s * chunk;
        const uint64_t words = std::min(chunk, n - offset);
        *section = kOnes;
        build_.prisoner(flags + offset, words);
        launched(proto::kLeftmostPrisoner, words);
        build_.section(flags + offset, section, words);
        launched(proto::kSectionDiff, words);
        const uint64_t in = *section;
        return in >= words ? n : offset + in;
    }

    Build build_;
};

// msw.index's two_phase case at n, as day.cpp runs it, against the model.
grading::GateResult gradeAt(const Build& build, uint64_t n, uint64_t seed = 2024) {
    const std::string call = "msw.index/two_phase_n" + std::to_string(n);
    const uint64_t key = msw::cases::generatorKey(seed, call);
    const uint64_t stream = msw::cases::caseStream(seed, call);
    const std::vector<IndexCase> cases = msw::cases::indexCases(n, stream);
    const std::vector<uint64_t> want = msw::cases::wants(n, key, cases);
    const proto::FindRequest req =
        msw::cases::findRequest("two_phase", n, key, cases, msw::cases::wrapperFlags(n, cases), stream);
    Simulation sim(build);
    // Through the protocol both ways, as the runner's answer travels.
    const auto request = grading::protocol::decode<proto::FindRequest>(grading::protocol::encode(req));
    EXPECT_TRUE(request.ok()) << request.error();
    const auto result = grading::protocol::decode<proto::FindResult>(grading::protocol::encode(sim.run(request.value())));
    EXPECT_TRUE(result.ok()) << result.error();
    return msw::cases::judgeFind("two_phase", n, cases, want, result.value());
}

// The EXPECT regex plants.cmake declares for a plant.
std::string plantRegex(const std::string& plant) {
    std::ifstream in(std::string(GRADING_DAY_DIR) + "/plants.cmake");
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    const size_t at = s.find("grading_plant(" + plant + "\n");
    if (at == std::string::npos) return "(no plant " + plant + ")";
    const size_t open = s.find("EXPECT [[", at);
    const size_t close = s.find("]]", open);
    return s.substr(open + 9, close - open - 9);
}

void expectPlantMessage(const std::string& plant, const grading::GateResult& r) {
    ASSERT_FALSE(r.passed) << plant << " passed msw.index on the model";
    const std::string regex = plantRegex(plant);
    EXPECT_TRUE(std::regex_search(r.message, std::regex(regex)))
        << plant << ": the message does not match /" << regex << "/: " << r.message;
}

TEST(MswSimulated, TheSolutionPassesEverySmallSize) {
    for (const msw::cases::SizeSpec& spec : msw::cases::indexSizes()) {
        for (uint64_t seed : {1ull, 2ull}) {
            const uint64_t n = msw::cases::sizeFor(spec, seed);
            if (n > 5000) continue;
            const grading::GateResult r = gradeAt(solution(), n, seed);
            EXPECT_TRUE(r.passed) << "n = " << n << ": " << r.message;
        }
    }
}

TEST(MswSimulated, TheUntouchedStubAnswersNFromTheFirstWordOn) {
    Build stub;
    stub.sig = [](const uint64_t*, uint64_t*, uint64_t*, uint64_t) {};
    stub.prisoner = [](uint64_t*, uint64_t) {};
    stub.section = [](const uint64_t*, uint64_t*, uint64_t) {};
    EXPECT_EQ(gradeAt(stub, 100).message,
              "par_find_mismatch(d_a, b, d_large_block, n): n = 100, planted index 0 (first word): got 100, want 0");
}

TEST(MswSimulated, LastMismatch) {
    Build b = solution();
    b.prisoner = [](uint64_t* p, uint64_t n) {  // the rightmost survives
        bool kept = false;
        for (uint64_t i = n; i-- > 0;) {
            if (p[i] == 0) continue;
            if (kept) p[i] = 0;
            kept = true;
        }
    };
    expectPlantMessage("last_mismatch", gradeAt(b, 1000));
}

TEST(MswSimulated, PrisonerKeepsAllIsSeenOnlyByTheContract) {
    Build b = solution();
    b.prisoner = [](uint64_t* p, uint64_t n) {  // one survivor per thread of the host's grid
        const uint64_t threads = gridThreads(n, 4);
        for (uint64_t t = 0; t < threads && t < n; ++t) {
            bool kept = false;
            for (uint64_t i = t; i < n; i += threads) {
                if (p[i] == 0) continue;
                if (kept) p[i] = 0;
                kept = true;
            }
        }
    };
    const grading::GateResult r = gradeAt(b, 10);
    expectPlantMessage("prisoner_keeps_all", r);
    EXPECT_EQ(r.message.find("got"), std::string::npos) << "every answer should be right: " << r.message;
}

TEST(MswSimulated, ChunkFloorSqrtMissesTheTailOffSquaresOnly) {
    Build b = solution();
    b.sig = [](const uint64_t* a, uint64_t* flags, uint64_t* marks, uint64_t n) {
        const uint64_t chunk = msw::floor_sqrt(n);
        for (uint64_t i = 0; i < n; ++i) {
            flags[i] = a[i] != flags[i] ? 1 : 0;
            if (flags[i]) marks[i / chunk] = 1;
        }
    };
    b.chunkWords = [](uint64_t n) { return msw::floor_sqrt(n); };
    expectPlantMessage("chunk_floor_sqrt", gradeAt(b, 10));
    EXPECT_TRUE(gradeAt(b, 16).passed) << gradeAt(b, 16).message;
}

TEST(MswSimulated, ComparingTheLowHalfMissesTheFirstWord) {
    Build b = solution();
    b.sig = [](const uint64_t* a, uint64_t* flags, uint64_t* marks, uint64_t n) {
        const uint64_t chunk = msw::chunk_size(n);
        for (uint64_t i = 0; i < n; ++i) {
            flags[i] = static_cast<uint32_t>(a[i]) != static_cast<uint32_t>(flags[i]) ? 1 : 0;
            if (flags[i]) marks[i / chunk] = 1;
        }
    };
    expectPlantMessage("compare_low_half", gradeAt(b, 1000));
}

TEST(MswSimulated, FlagsThatAreTheXorAreNotTheContract) {
    Build b = solution();
    b.sig = [](const uint64_t* a, uint64_t* flags, uint64_t* marks, uint64_t n) {
        const uint64_t chunk = msw::chunk_size(n);
        for (uint64_t i = 0; i < n; ++i) {
            flags[i] = a[i] ^ flags[i];
            if (flags[i]) marks[i / chunk] = 1;
        }
    };
    const grading::GateResult r = gradeAt(b, 10);
    ASSERT_FALSE(r.passed);
    EXPECT_TRUE(std::regex_search(r.message, std::regex(R"(^par_sig_sqrt \(phase 1\), n = 10, planted index 0 \(first word\): flag 0 is 9223372036854775808, want 1 \(the words differ\)$)")))
        << r.message;
}

TEST(MswSimulated, TheCoursesPlainStoreSectionIsRightAfterARightPrisoner) {
    Build b = solution();
    b.section = [](const uint64_t* tree, uint64_t* section, uint64_t n) {  // *section = i, as the course wrote it
        for (uint64_t i = 0; i < n; ++i) {
            if (tree[i] != 0) *section = i;
        }
    };
    EXPECT_TRUE(gradeAt(b, 1000).passed) << gradeAt(b, 1000).message;
}

TEST(MswSimulated, BlockPlantsFailTheirCourseGates) {
    std::vector<uint64_t> ns = msw::cases::blockSizes();
    std::vector<uint64_t> precondition;
    for (uint64_t n : ns) precondition.push_back(n + msw::floor_sqrt(n) + 2);
    const grading::GateResult block = msw::grade::checkBlock(ns, precondition);
    ASSERT_FALSE(block.passed);
    EXPECT_TRUE(std::regex_search(block.message, std::regex(plantRegex("precondition_block")))) << block.message;

    const uint64_t wrapped = 0 + 1 + (msw::floor_sqrt(uint64_t{0} - 1) + 1);
    const grading::GateResult empty =
        msw::grade::checkEmpty({{msw::cases::kWrapperName, 0}, {msw::cases::kBlockOverload, 0}},
                               static_cast<int64_t>(wrapped), -1, 0);
    ASSERT_FALSE(empty.passed);
    EXPECT_TRUE(std::regex_search(empty.message, std::regex(plantRegex("empty_underflow")))) << empty.message;
}

}  // namespace
