#pragma once
// The msw gates (grading.md, "msw: first mismatching word"): plain host functions
// over what a runner returned; each names the first disagreement (where,
// got, want). day.cpp declares which cases each one runs on.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/gate.h"

namespace msw::grade {

// The gates' own arithmetic, independent of the course's (msw_math.h).
uint64_t floorSqrt(uint64_t x);
// The chunk length of the decomposition, floor(sqrt(n - 1)) + 1, for n >= 1;
// also the number of chunk marks.
uint64_t chunkLength(uint64_t n);
// n + floor(sqrt(n - 1)) + 2 for n >= 1.
uint64_t wantBlockWords(uint64_t n);

// A scratch block for n = 0 larger than this is "huge" (the course's
// sqrt(n - 1) made it 2^32 + 1 words).
constexpr int64_t kEmptyBlockLimitWords = 1024;

// One msw.index question: b is a with the words at `planted` changed
// (b[planted[k]] = a[planted[k]] ^ masks[k], every mask non-zero) and the
// words at `decoys` rewritten with their own value. `kind` says why the
// question exists ("last word", "first word of chunk 12", ...).
struct IndexCase {
    std::string kind;
    std::vector<uint64_t> planted;  // sorted, distinct
    std::vector<uint64_t> masks;    // parallel to planted
    std::vector<uint64_t> decoys;   // distinct from planted
};

// "n = 10, planted index 9 (last word)", "n = 8, planted indices 2, 5
// (several)", "n = 5, no planted index (identical arrays)".
std::string describeCase(uint64_t n, const IndexCase& c);

// msw.index for one answer: `function` names the call that gave it.
grading::GateResult checkIndex(const std::string& function, uint64_t n, const IndexCase& c, int64_t got,
                               uint64_t want);

// msw.index over a batch; got[k] < 0 means case k was not asked of
// `function` (and is skipped). The first failing case is named.
grading::GateResult checkIndexBatch(const std::string& function, uint64_t n, const std::vector<IndexCase>& cases,
                                    const std::vector<int64_t>& got, const std::vector<uint64_t>& want);

// One launch the four-argument search made, as the runner recorded it: the
// kernel (protocol.h Kernel), the n it was given, and the scratch block
// right after it: how many of its words were non-zero and the first of them
// as (block offset, value), offsets increasing. The block is laid out as
// [0, n) flags, [n] the answer word (*section), [n + 1, n + 1 + chunk)
// chunk marks (course/msw.cu).
struct Launch {
    int32_t kernel = -1;
    uint64_t count = 0;
    uint64_t nonZero = 0;
    std::vector<std::pair<uint64_t, uint64_t>> words;
};

// msw.index, each kernel on its own contract (course/msw.cuh), launch by
// launch: after par_sig_sqrt the flags are exactly 1 where the words differ
// and 0 elsewhere and the chunk marks exactly 1 where a chunk holds a
// difference; after each naive_leftmost_prisoner exactly the leftmost
// non-zero element of its array survives; after each par_get_section_diff
// *section is that element's index (all ones when there is none); and no
// kernel changes a word of the block outside what it was given. Names the
// kernel, the phase, the case and the first word that is wrong.
grading::GateResult checkLaunches(uint64_t n, const IndexCase& c, const std::vector<Launch>& launches);

// msw.empty: every (function, answer) for n = 0 is 0; the scratch block for
// n = 0 (blockWords < 0: not asked) holds at most kEmptyBlockLimitWords
// words; alloc_large_block_to_device(0) returned nullptr (allocNull 1; 0: a
// pointer; -1: not asked); and nothing was launched.
grading::GateResult checkEmpty(const std::vector<std::pair<std::string, int64_t>>& answers, int64_t blockWords,
                               int allocNull = -1, int launches = 0);

// msw.block: got[k] is the block size reported for ns[k] (all >= 1).
grading::GateResult checkBlock(const std::vector<uint64_t>& ns, const std::vector<uint64_t>& got);

}  // namespace msw::grade
