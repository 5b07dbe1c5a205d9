#pragma once
// msw.index's failures, shrunk (harness/shrink.h): the same search on
// fewer words, the question's mismatches moved to the same places in the
// chunk structure (the same chunk from the start or the end, the same word
// of it), then with simpler masks, while the submission still fails the
// same way. Each candidate is one find call of one question.
#include <cstdint>
#include <string>
#include <vector>

#include "gates.h"
#include "harness/shrink.h"

namespace msw::shrink {

constexpr grading::ShrinkBudget kBudget{40, 10.0};

struct Input {
    uint64_t n = 0;
    grade::IndexCase question;
};

// Where p (of n words) falls in n2 words: the same chunk (counted from the
// end when it was the last), the same word of it (the last when it was the
// last), and the last word for the last word.
uint64_t moveIndex(uint64_t p, uint64_t n, uint64_t n2);

// Smaller inputs than `from`: fewer words (smallest first), then the same
// words with each mask cut to one bit, then without the decoys.
std::vector<Input> candidates(const Input& from);

// "n = 10, planted index 9 (last word)".
std::string describe(const Input& in);

// The failed question's words as a student can read them: n, every word of
// a up to 16 (then the planted ones), and b's differing words.
std::string wordsText(uint64_t key, const Input& in);

// The whole counterexample as a file: "n", then "a <hex>" per word, then
// "b <index> <hex>" per word b rewrites.
std::string fileText(uint64_t key, const Input& in);

}  // namespace msw::shrink
