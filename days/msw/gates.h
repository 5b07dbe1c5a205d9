#pragma once
// The msw gates (gates.md, "First mismatching word"). Plain host functions
// over what a runner returned; each names the first disagreement.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/gate.h"

namespace msw::grade {

// The gates' own arithmetic, independent of the reference's.
uint64_t floorSqrt(uint64_t x);
// Chunk length of the decomposition, floor(sqrt(n - 1)) + 1 for n >= 1.
uint64_t chunkLength(uint64_t n);
// n + floor(sqrt(n - 1)) + 2 for n >= 1.
uint64_t wantBlockWords(uint64_t n);

// A scratch block for n = 0 larger than this is "huge" (the course's
// sqrt(n - 1) made it 2^32 + 1 words).
constexpr int64_t kEmptyBlockLimitWords = 1024;

// One msw.index question: the second array differs from the first exactly
// at `planted` (sorted, distinct; empty: identical arrays). `kind` says why
// the case exists ("last word", "chunk boundary 12 - 1", ...).
struct IndexCase {
    std::string kind;
    std::vector<uint64_t> planted;
};

// "n = 10, planted index 9 (last word)", "n = 8, planted indices 2, 5
// (several)", "n = 5, no planted index (identical arrays)".
std::string describeCase(uint64_t n, const IndexCase& c);

// msw.index for one case: `function` names the call that answered.
grading::GateResult checkIndex(const std::string& function, uint64_t n, const IndexCase& c, int64_t got,
                               uint64_t want);

// msw.index over a batch; got[k] < 0 means case k was not asked of
// `function` (and is skipped). The first failing case is named.
grading::GateResult checkIndexBatch(const std::string& function, uint64_t n, const std::vector<IndexCase>& cases,
                                    const std::vector<int64_t>& got, const std::vector<uint64_t>& want);

// msw.empty: every (function, answer) for n = 0 is 0, and the scratch block
// for n = 0 (blockWords < 0: not reported, e.g. the fast search has none)
// holds at most kEmptyBlockLimitWords words.
grading::GateResult checkEmpty(const std::vector<std::pair<std::string, int64_t>>& answers, int64_t blockWords);

// msw.block: got[k] is the block size reported for ns[k] (all >= 1).
grading::GateResult checkBlock(const std::vector<uint64_t>& ns, const std::vector<int64_t>& got);

}  // namespace msw::grade
