#include "shrink.h"

#include <algorithm>
#include <set>

#include "arrays.h"
#include "harness/text.h"

namespace msw::shrink {
namespace {

uint64_t chunksOf(uint64_t n) {
    const uint64_t c = grade::chunkLength(n);
    return (n + c - 1) / c;
}

// Sizes to try, smallest first: small ones, squares and their neighbours
// (the chunk structure's edges), and halvings of n.
std::vector<uint64_t> smallerSizes(uint64_t n) {
    std::set<uint64_t> sizes = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32, 64, 100, 128, 256};
    for (uint64_t k = 2; k <= 64; k *= 2) sizes.insert({k * k - 1, k * k, k * k + 1});
    for (uint64_t m = n / 2; m > 256; m /= 2) sizes.insert(m);
    std::vector<uint64_t> out;
    for (uint64_t m : sizes) {
        if (m < n) out.push_back(m);
    }
    return out;
}

uint64_t highestBit(uint64_t x) { return x == 0 ? 0 : uint64_t{1} << (63 - __builtin_clzll(x)); }

std::string hex(uint64_t w) { return grading::formatText("%016llx", static_cast<unsigned long long>(w)); }

}  // namespace

uint64_t moveIndex(uint64_t p, uint64_t n, uint64_t n2) {
    if (p + 1 == n) return n2 - 1;
    const uint64_t c = grade::chunkLength(n), c2 = grade::chunkLength(n2);
    const uint64_t chunks = chunksOf(n), chunks2 = chunksOf(n2);
    const uint64_t chunk = p / c, word = p % c;
    const uint64_t chunk2 = chunk + 1 == chunks ? chunks2 - 1 : std::min(chunk, chunks2 - 1);
    const uint64_t word2 = word + 1 == c ? c2 - 1 : std::min(word, c2 - 1);
    return std::min(chunk2 * c2 + word2, n2 - 1);
}

std::vector<Input> candidates(const Input& from) {
    std::vector<Input> out;
    for (uint64_t n2 : smallerSizes(from.n)) {
        Input in{n2, from.question};
        std::vector<uint64_t>& planted = in.question.planted;
        if (planted.size() > n2) continue;
        for (uint64_t& p : planted) p = moveIndex(p, from.n, n2);
        // Mismatches that met on one word are pushed apart, in order, within n2 words.
        for (size_t k = 1; k < planted.size(); ++k) planted[k] = std::max(planted[k], planted[k - 1] + 1);
        if (!planted.empty() && planted.back() >= n2) {
            planted.back() = n2 - 1;
            for (size_t k = planted.size() - 1; k > 0; --k) planted[k - 1] = std::min(planted[k - 1], planted[k] - 1);
        }
        const std::set<uint64_t> moved(planted.begin(), planted.end());
        in.question.decoys.clear();
        for (uint64_t d : from.question.decoys) {
            const uint64_t m = moveIndex(d, from.n, n2);
            if (!moved.count(m) && std::find(in.question.decoys.begin(), in.question.decoys.end(), m) ==
                                       in.question.decoys.end()) {
                in.question.decoys.push_back(m);
            }
        }
        out.push_back(std::move(in));
    }
    for (uint64_t keep : {uint64_t{1}, uint64_t{0}}) {  // each mask's highest bit, then its lowest
        Input in = from;
        bool simpler = false;
        for (uint64_t& m : in.question.masks) {
            const uint64_t one = keep ? highestBit(m) : m & (~m + 1);
            simpler = simpler || one != m;
            m = one;
        }
        if (simpler) out.push_back(std::move(in));
    }
    if (!from.question.decoys.empty()) {
        Input in = from;
        in.question.decoys.clear();
        out.push_back(std::move(in));
    }
    return out;
}

std::string describe(const Input& in) { return grade::describeCase(in.n, in.question); }

std::string wordsText(uint64_t key, const Input& in) {
    constexpr uint64_t kShown = 16;
    std::string s;
    if (in.n <= kShown) {
        s = "a =";
        for (uint64_t i = 0; i < in.n; ++i) s += " " + hex(msw::arrays::word(key, i));
    } else {
        s = "a[i] as the generator's (key " + std::to_string(key) + ")";
    }
    s += "; b = a but";
    for (size_t k = 0; k < in.question.planted.size(); ++k) {
        const uint64_t i = in.question.planted[k];
        s += (k > 0 ? ", b[" : " b[") + std::to_string(i) + "] = " + hex(msw::arrays::word(key, i) ^ in.question.masks[k]);
    }
    return s;
}

std::string fileText(uint64_t key, const Input& in) {
    std::string s = "# msw counterexample: the first index where a and b differ\nn " + std::to_string(in.n) + "\n";
    for (uint64_t i = 0; i < in.n; ++i) s += "a " + hex(msw::arrays::word(key, i)) + "\n";
    for (size_t k = 0; k < in.question.planted.size(); ++k) {
        const uint64_t i = in.question.planted[k];
        s += "b " + std::to_string(i) + " " + hex(msw::arrays::word(key, i) ^ in.question.masks[k]) + "\n";
    }
    return s;
}

}  // namespace msw::shrink
