#pragma once
// The day 52 inputs, generated from a key on both sides of the runner: the
// grader sends the key, the runner builds d_in from it, and the grader
// builds the same array for its host reference. Integer arithmetic and
// exact power-of-two scaling only, so both compilers produce the same bits.
//
// Key 0 is the course's own input (251 values, repeated). Any other key but 1
// draws a palette of kPaletteSize values in [-512, 512) and scatters it over
// the kElems elements: the values differ from key to key (a replayed answer
// is wrong), and few distinct values keep the host reference quick. Over
// that range every right output lies above 970, and a branch that read the
// zeroed middle buffer gives 751.9: a missing dependency is always far off.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "forkjoin_constants.h"
#include "harness/splitmix64.h"

namespace day52 {

constexpr uint64_t kCourseInputKey = 0;
// Key 1 is a hand-made input no generator here draws: stairs of 4096 equal
// values climbing from -512 by 16, then down again, with -0 at every 1000th
// element.
constexpr uint64_t kHandMadeInputKey = 1;
constexpr size_t kPaletteSize = 4096;

// A good 64-bit mix of one word: splitmix64's first output from it.
inline uint64_t mix64(uint64_t z) { return grading::SplitMix64(z).next(); }

// A multiple of 2^-14 in [-512, 512): 24 significant bits at most, exact in float.
inline float paletteValue(uint64_t key, size_t k) {
    const int64_t units = static_cast<int64_t>(mix64(key ^ mix64(k)) >> 40) - (int64_t{1} << 23);
    return std::ldexp(static_cast<float>(units), -14);
}

inline std::vector<float> diamondInput(uint64_t key) {
    std::vector<float> in(kElems);
    if (key == kCourseInputKey) {
        for (size_t i = 0; i < kElems; ++i) in[i] = courseInput(i);
        return in;
    }
    if (key == kHandMadeInputKey) {
        for (size_t i = 0; i < kElems; ++i) {
            const size_t step = (i < kElems / 2 ? i : kElems - 1 - i) >> 12;  // 0..127, up then down
            in[i] = i % 1000 == 999 ? -0.0f : static_cast<float>(static_cast<int>(step % 64) * 16 - 512);
        }
        return in;
    }
    std::vector<float> palette(kPaletteSize);
    for (size_t k = 0; k < kPaletteSize; ++k) palette[k] = paletteValue(key, k);
    palette[0] = 0.0f;  // the ends of the range and both zeros, in every palette
    palette[1] = -0.0f;
    palette[2] = -512.0f;
    palette[3] = std::ldexp(static_cast<float>((int64_t{1} << 23) - 1), -14);
    const uint64_t scatter = mix64(key ^ 0x5ca7'7e25'ca77'e125ull);
    for (size_t i = 0; i < kElems; ++i) in[i] = palette[mix64(scatter + i) % kPaletteSize];
    return in;
}

}  // namespace day52
