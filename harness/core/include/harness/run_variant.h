#pragma once
// Each timed run's own input (harness/timed_run_check.h): run 0's input
// moved, so that a correct kernel answers with run 0's output moved the same
// way, bit for bit. Plain C++: the runner makes the variants and the grader
// names them in its messages.
#include <cstddef>

namespace grading {

struct RunVariant {
    size_t rotation = 0;    // word j of the variant is word (j - rotation) mod n of the original...
    int scaleExponent = 0;  // ...times 2^scaleExponent
};

// What a day's work allows: moving words (element-wise work), scaling them
// (linear work), or both.
struct VariantKinds {
    bool rotate = false;
    bool scale = false;
};

// Run i's variant of an n-word input: run 0's is the original, and no two
// runs within 17 of each other share one (exponents 0, 1..8, -1..-8).
inline RunVariant runVariant(int run, size_t n, VariantKinds kinds) {
    RunVariant v;
    const int step = run % 17;
    if (kinds.scale) v.scaleExponent = step <= 8 ? step : 8 - step;
    if (kinds.rotate && n > 1) v.rotation = (static_cast<size_t>(run) * (n / 17 + 1)) % n;
    return v;
}

}  // namespace grading
