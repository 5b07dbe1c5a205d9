#pragma once
// What the msw gates grade on: the sizes (fixed edge cases and sizes drawn
// from seeded ranges), the questions asked at each size, the keys the
// arrays are generated from, the host answers, and one typed runner call
// per question. The time limits live here too, in one place, each scaled by
// the words and searches it bounds.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gates.h"
#include "harness/runner_client.h"
#include "protocol.h"

namespace msw::cases {

// ---- time limits: a correct run on a GPU shared with three other runners
// (gpu_slots.h) takes well under a tenth of these.
constexpr double kCallSeconds = 15.0;       // process start, CUDA context, generating a, allocations
constexpr double kSecondsPerSearch = 0.02;  // one search's launches, host waits and block snapshots
constexpr double kSecondsPerWord = 1e-8;    // per word of one search: copying b, the kernels, the scans
// A call of `searches` searches over n words (a timed run is a search).
double searchSeconds(uint64_t n, uint64_t searches);

// ---- sizes
struct SizeSpec {
    std::string name;  // n10, n16777216, random_small: part of the case names
    uint64_t lo = 0;   // fixed when lo == hi; otherwise drawn from [lo, hi] with the seed
    uint64_t hi = 0;
    bool zeroWords = false;  // a is the hand-made array of zeros (arrays.h), not the generator's
    bool seeded() const { return lo != hi; }
};
// 1, 2, 3, perfect squares and their neighbours (4097^2 is where a float
// square root starts to round up), 12 and 20 (a chunk ends exactly at n),
// 1000, 2^24 and 2^24 + 1, the largest n the runner accepts; 65537 words of
// zeros (the hand-made a); then the seeded ranges.
constexpr uint64_t kLargestWords = protocol::kMaxWords;  // the runner's limit
std::vector<SizeSpec> indexSizes();
uint64_t sizeFor(const SizeSpec& spec, uint64_t seed);

// ---- keys: the arrays come from a key derived from the grading seed with
// SHA-256, per call (so inputs differ between calls), never kZeroWordsKey;
// the runner gets the key, never the seed. The positions asked about come from another
// derivation the runner never sees.
uint64_t derive(uint64_t seed, const std::string& purpose);
uint64_t generatorKey(uint64_t seed, const std::string& call);
uint64_t caseStream(uint64_t seed, const std::string& call);

// ---- the questions at one size. Every chunk boundary is asked about up to
// kAllBoundariesUpTo chunks (every fixed size up to 4097 words); above, a
// seeded sample of sampledBoundaries(n): the first and last quarter of it
// and random ones. Each question is a full search (a copy of b, five
// launches, each waited for) and they were most of a class's GPU time; past
// the first and last chunks, boundaries differ only in where they fall.
constexpr uint64_t kAllBoundariesUpTo = 64;
uint64_t sampledBoundaries(uint64_t n);  // 32; 16 from 2^24 words (a 128 MiB copy per search), 4 from 2^26
constexpr int kDecoysPerCase = 2;        // words rewritten with their own value
// Identical arrays; the first word (differing in bit 63 only) and the last
// (bit 0 only); the words around chunk boundaries; random words (random
// masks); several mismatches, in one chunk, spread, one per chunk, around a
// boundary, and every word up to 4096 words.
std::vector<grade::IndexCase> indexCases(uint64_t n, uint64_t stream);
// No size asks more (the time limits rest on it).
uint64_t maxIndexCases(uint64_t n);

// Which questions also go to the three-argument overload: all of them up to
// kWrapperEveryCaseUpTo words; above, identical arrays, the first and last
// word, the several-mismatch ones and every 8th. The overload runs the same
// kernels on the same words as the block one, which answers every question;
// each of its calls allocates, copies and frees both arrays, about a dozen
// waits for the GPU where a block search has eight.
constexpr uint64_t kWrapperEveryCaseUpTo = 64;
std::vector<int32_t> wrapperFlags(uint64_t n, const std::vector<grade::IndexCase>& cases);

// seq_find_mismatch on the arrays the runner builds. Up to kFullScanUpTo
// words over the whole arrays; above, over the edited words in order (b
// equals a everywhere else). Throws std::logic_error if that is not the
// first planted index: the generator itself would be broken.
constexpr uint64_t kFullScanUpTo = uint64_t{1} << 21;
std::vector<uint64_t> wants(uint64_t n, uint64_t key, const std::vector<grade::IndexCase>& cases);

// The function names the messages use.
extern const char* const kBlockOverload;  // par_find_mismatch(d_a, b, d_large_block, n)
extern const char* const kWrapperName;    // par_find_mismatch(a, b, n)
extern const char* const kFastName;       // fast_find_mismatch(d_a, d_b, n)
std::string functionName(const std::string& impl);

// ---- requests and runner calls. The edits of a question: its planted
// words and its decoys, shuffled (stream), so the list's order and minimum
// say nothing.
struct EditLists {
    std::vector<uint64_t> start, index, value;
};
EditLists editLists(uint64_t key, const std::vector<grade::IndexCase>& cases, uint64_t stream);

protocol::FindRequest findRequest(const std::string& impl, uint64_t n, uint64_t key,
                                  const std::vector<grade::IndexCase>& cases, const std::vector<int32_t>& wrapper,
                                  uint64_t stream);
// A find call: fast (FindRequest::strict = 0) first, asked again strictly
// where it fails (grading::askAgainStrictly).
grading::Reply<protocol::Find> callFind(const std::string& runner, const protocol::FindRequest& request,
                                        double limitSeconds);

// The launches of search k of a find result, as the gate reads them.
std::vector<grade::Launch> launchesOf(const protocol::FindResult& r, size_t k);
// What is wrong with the shape of a find result for `cases` questions; "" when nothing.
std::string findResultProblem(const std::string& impl, const protocol::FindResult& r, size_t cases);

// msw.index over one find call: every answer of both overloads (or the fast
// search), then, for two_phase, every search's launches.
grading::GateResult judgeFind(const std::string& impl, uint64_t n, const std::vector<grade::IndexCase>& cases,
                              const std::vector<uint64_t>& want, const protocol::FindResult& r);

// Which question a failed find call failed on, in judgeFind's order; the
// question count when none alone did (a malformed result).
size_t failingQuestion(const std::string& impl, uint64_t n, const std::vector<grade::IndexCase>& cases,
                       const std::vector<uint64_t>& want, const protocol::FindResult& r);

// One msw.index case end to end: the questions for n, the runner call, the
// verdict; a failure shrunk to its smallest input where the case's details
// reach the student (shrink.h's shrinksFailure).
grading::GateResult indexCase(const std::string& runner, const std::string& impl, const std::string& call, uint64_t n,
                              uint64_t seed, double limitSeconds, bool zeroWords = false, bool showsDetails = false);

grading::Reply<protocol::Empty> callEmpty(const std::string& runner, const std::string& impl, double limitSeconds);

// n for msw.block: 1..3000, squares k^2 and k^2 +- 1 up to 2^62, and 2^62.
std::vector<uint64_t> blockSizes();
grading::Reply<protocol::Block> callBlock(const std::string& runner, const std::vector<uint64_t>& ns,
                                          double limitSeconds);

// Timed searches: every question `runs` times after protocol::kWarmupRuns warm-ups.
grading::Reply<protocol::Time> callTime(const std::string& runner, const std::string& impl, uint64_t n, uint64_t key,
                                        const std::vector<grade::IndexCase>& cases, int runs, uint64_t stream,
                                        double limitSeconds, bool exclusiveGpu);

}  // namespace msw::cases
