#pragma once
// What the msw suites grade on, and one runner call per question asked.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/runner_client.h"
#include "msw_gates.h"

namespace msw::cases {

std::vector<std::string> impls();  // two_phase, fast

// The function whose answer msw.index checks for an impl.
std::string functionName(const std::string& impl);
extern const char* const kWrapperName;  // par_find_mismatch(a, b, n)

// Sizes for msw.index: 1, 2, 3, perfect squares and their neighbours, and
// two of at least 2^24 words.
std::vector<uint64_t> indexSizes();

// Every chunk boundary is asked about up to this many chunks (all sizes up
// to 65536 words); above, a seeded sample of sampledBoundaries(n): the first
// and the last quarter of it and random ones. Each case is a full search (a
// copy of b, five launches), so the sample keeps the large sizes to a few
// hundred cases.
constexpr uint64_t kAllBoundariesUpTo = 256;
uint64_t sampledBoundaries(uint64_t n);  // 64, or 32 from 2^24 words (a 128 MiB copy per case)

// msw.index cases for one n: identical arrays, the first and the last word,
// the words around chunk boundaries, random words, several mismatches.
std::vector<grade::IndexCase> indexCases(uint64_t n, uint64_t seed);

// Which cases also go to the three-argument overload: all of them up to
// kWrapperEveryCaseUpTo words; above, the ones that matter most (identical
// arrays, first and last word, several mismatches) and every 8th. It is the
// same kernels behind a host wrapper that allocates, so a sample suffices
// where each call costs two allocations and two copies.
constexpr uint64_t kWrapperEveryCaseUpTo = 2048;
std::vector<int32_t> wrapperFlags(uint64_t n, const std::vector<grade::IndexCase>& cases);

// seq_find_mismatch on the arrays the runner builds (msw_arrays.h).
// Throws std::logic_error if that disagrees with the planted indices: the
// generator itself would be broken. Up to kFullScanUpTo words every case
// scans the whole arrays; above, b is a copy of a that differs only at the
// case's planted words (restored after each case, and a full scan at the end
// proves it), so seq_find_mismatch is asked about those words in order.
constexpr uint64_t kFullScanUpTo = uint64_t{1} << 21;
std::vector<uint64_t> wants(uint64_t n, uint64_t seed, const std::vector<grade::IndexCase>& cases);

struct FindRun {
    grading::RunnerOutcome outcome;
    std::vector<int64_t> got;
    std::vector<int64_t> gotWrapper;  // two_phase only; -1 where not asked
    std::string fieldError;
};
FindRun runFind(const std::string& runner, const std::string& impl, uint64_t n, uint64_t seed,
                const std::vector<grade::IndexCase>& cases, const std::vector<int32_t>& wrapper,
                double timeLimitSeconds);

// Time limit for a find call over n words: about five times what a correct
// run takes on a GPU shared with the rest of the suite.
double findTimeLimit(uint64_t n);

struct EmptyRun {
    grading::RunnerOutcome outcome;
    std::vector<std::pair<std::string, int64_t>> answers;  // (function, what it returned)
    int64_t blockWords = -1;
    int64_t allocNull = -1;
    int64_t freeBefore = 0;
    int64_t freeAfter = 0;
    std::string fieldError;
};
EmptyRun runEmpty(const std::string& runner, const std::string& impl);

// n for msw.block: 1..3000, squares k^2 and k^2 +- 1 up to 2^62, 2^62.
std::vector<uint64_t> blockSizes();

struct BlockRun {
    grading::RunnerOutcome outcome;
    std::vector<int64_t> blockWords;
    std::string fieldError;
};
BlockRun runBlock(const std::string& runner, const std::vector<uint64_t>& ns);

struct TimeRun {
    grading::RunnerOutcome outcome;
    std::vector<std::vector<float>> ms;  // [placement][run]
    std::string fieldError;
};
// One runner call times every placement (plant < 0: identical arrays).
TimeRun runTime(const std::string& runner, const std::string& impl, uint64_t n, uint64_t seed,
                const std::vector<int64_t>& plants, int runs);

}  // namespace msw::cases
