#pragma once
// The msw runner protocol: what the grader sends each subcommand and what
// comes back, declared once for both sides (harness/protocol.h).
//
// The arrays never travel: a is generated from `key` (arrays.h) and b is a
// with some words rewritten. The edits are only "write this value at this
// word": some of them rewrite a word with its own value, so neither the
// positions nor their minimum is the answer, and nothing the grader expects
// (an index, a planted position) is in any request.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/protocol.h"

namespace msw::protocol {

using grading::protocol::OneOf;
using grading::protocol::Within;

// Limits the requests' fields carry (checked where a request is decoded).
// n = 0 has a subcommand of its own (empty).
constexpr uint64_t kMaxWords = uint64_t{1} << 27;  // 1 GiB an array; msw.index asks it (cases.h: kLargestWords)
constexpr int32_t kMaxTimedRuns = 1000;
inline const OneOf kImpls{{"two_phase", "fast"}};  // fast: the instructor's, reference runner only

// The most block words a find result carries for one launch of a search
// with `edits` edits: a correct search leaves at most one non-zero flag and
// one chunk mark an edit, the answer word and the block past the marks
// (blockWords - n words); the slack keeps the first wrong word among those
// sent. It grows with the edits and sqrt(n), not with n, so no launch
// sends its block back (tests/msw/cases_test.cpp).
constexpr uint64_t kSnapshotSlack = 64;
constexpr uint64_t snapshotCap(uint64_t edits, uint64_t n, uint64_t blockWords) {
    return 2 * edits + 2 * (blockWords - n) + kSnapshotSlack;
}

// The kernels a recorded launch can be (FindResult::launchKernel).
enum Kernel : int32_t { kParSigSqrt = 0, kLeftmostPrisoner = 1, kSectionDiff = 2, kUnknownKernel = -1 };

// Several searches of the same a: search k uses b = a with
// editIndex[j] := editValue[j] for j in [editStart[k], editStart[k + 1]),
// and b is a again before the next search.
struct FindRequest {
    std::string impl;  // two_phase | fast
    uint64_t n = 0;    // 1 .. 2^27 words
    uint64_t key = 0;  // a's generator key
    std::vector<uint64_t> editStart;  // searches + 1 offsets
    std::vector<uint64_t> editIndex;  // < n, in no particular order
    std::vector<uint64_t> editValue;
    // two_phase: per search, also ask the three-argument overload.
    std::vector<int32_t> wrapper;
    // 0: b on the device, every check after a launch queued behind it and
    // read after every few searches (one wait for a dozen or so searches
    // besides the course's own). 1: b in pinned host memory and one wait
    // after each launch, so a failure names the launch; the grader asks so
    // only after a call failed.
    int32_t strict = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("impl", s.impl, kImpls);
        field("n", s.n, Within<uint64_t>{1, kMaxWords});
        field("key", s.key);
        field("edit_start", s.editStart);
        field("edit_index", s.editIndex);
        field("edit_value", s.editValue);
        field("wrapper", s.wrapper);
        field("strict", s.strict, Within<int32_t>{0, 1});
    }
};

// Per search the answers, and (two_phase) every launch the four-argument
// search made: the kernel, the n it was given, and the scratch block right
// after it as its non-zero words. The block holds far more words than a
// correct search leaves non-zero, so the runner sends only the first
// `snapshot cap` of them by offset (enough to name the first wrong word) and
// how many there were in all.
struct FindResult {
    std::vector<int64_t> got;          // par_find_mismatch(d_a, b, d_large_block, n), or fast_find_mismatch
    std::vector<int64_t> gotWrapper;   // two_phase: par_find_mismatch(a, b, n); -1 where not asked
    std::vector<uint64_t> launchStart;  // searches + 1 offsets into the launch fields
    std::vector<int32_t> launchKernel;  // Kernel
    std::vector<uint64_t> launchCount;  // the n the kernel was given
    std::vector<uint64_t> launchNonZero;  // non-zero words of the whole block after it
    std::vector<uint64_t> wordStart;    // launches + 1 offsets into wordOffset / wordValue
    std::vector<uint64_t> wordOffset;   // increasing block offsets of the first non-zero words
    std::vector<uint64_t> wordValue;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("got", s.got);
        field("got_wrapper", s.gotWrapper);
        field("launch_start", s.launchStart);
        field("launch_kernel", s.launchKernel);
        field("launch_count", s.launchCount);
        field("launch_non_zero", s.launchNonZero);
        field("word_start", s.wordStart);
        field("word_offset", s.wordOffset);
        field("word_value", s.wordValue);
    }
};

// n = 0 through every entry point.
struct EmptyRequest {
    std::string impl;  // two_phase | fast

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("impl", s.impl, kImpls);
    }
};

struct EmptyResult {
    int64_t gotWrapper = -1;  // two_phase: par_find_mismatch(a, b, 0)
    int64_t gotBlock = -1;    // two_phase: par_find_mismatch(d_a, b, d_large_block, 0)
    int64_t gotFast = -1;     // fast: fast_find_mismatch(d_a, d_b, 0)
    uint64_t blockWords = 0;  // two_phase: large_block_words(0)
    int32_t allocNull = -1;   // alloc_large_block_to_device(0) returned nullptr (1) or not (0); -1: not tried
    int32_t launches = 0;     // kernels the calls launched (the launch hook's count)
    int64_t freeBefore = 0;   // cudaMemGetInfo, informational
    int64_t freeAfter = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("got_wrapper", s.gotWrapper);
        field("got_block", s.gotBlock);
        field("got_fast", s.gotFast);
        field("block_words", s.blockWords);
        field("alloc_null", s.allocNull);
        field("launches", s.launches);
        field("free_before", s.freeBefore);
        field("free_after", s.freeAfter);
    }
};

// large_block_words for many n (no kernel runs).
struct BlockRequest {
    std::vector<uint64_t> n;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("n", s.n);
    }
};

struct BlockResult {
    std::vector<uint64_t> blockWords;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("block_words", s.blockWords);
    }
};

// Warm-up runs before each search's timed ones (lazy module loading makes a
// kernel's first launch pay its own load).
constexpr int32_t kWarmupRuns = 2;

// Timed searches, as FindRequest lays them out (one placement per search),
// each run `runs` times after kWarmupRuns warm-ups. two_phase times the
// four-argument overload with b in pinned host memory; fast, device arrays.
struct TimeRequest {
    std::string impl;
    uint64_t n = 0;
    uint64_t key = 0;
    std::vector<uint64_t> editStart;
    std::vector<uint64_t> editIndex;
    std::vector<uint64_t> editValue;
    int32_t runs = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("impl", s.impl, kImpls);
        field("n", s.n, Within<uint64_t>{1, kMaxWords});
        field("key", s.key);
        field("edit_start", s.editStart);
        field("edit_index", s.editIndex);
        field("edit_value", s.editValue);
        field("runs", s.runs, Within<int32_t>{1, kMaxTimedRuns});
    }
};

// ms[k * runs + r] is run r of search k; answers[k * runs + r] what that run
// returned: timed work is graded work (msw.index's check).
struct TimeResult {
    std::vector<float> ms;
    std::vector<int64_t> answers;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("ms", s.ms);
        field("answers", s.answers);
    }
};

struct Find {
    static constexpr const char* kName = "find";
    using Request = FindRequest;
    using Result = FindResult;
};
struct Empty {
    static constexpr const char* kName = "empty";
    using Request = EmptyRequest;
    using Result = EmptyResult;
};
struct Block {
    static constexpr const char* kName = "block";
    using Request = BlockRequest;
    using Result = BlockResult;
};
struct Time {
    static constexpr const char* kName = "time";
    using Request = TimeRequest;
    using Result = TimeResult;
};

}  // namespace msw::protocol
