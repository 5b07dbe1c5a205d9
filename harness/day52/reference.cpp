#include "reference.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

#include "forkjoin_constants.h"
#include "inputs.h"

namespace day52 {

float grindHost(float x, float a, float b, int iters) {
    for (int k = 0; k < iters; ++k) x = std::fmaf(a, x, b);
    return x;
}

float sumFourHost(float b0, float b1, float b2, float b3) {
    float sum = b0 + b1;
    sum = sum + b2;
    return sum + b3;
}

float diamondElementHost(float x) {
    const float mid = grindHost(x, kA, kUpstreamB, kIters);
    float branch[kBranches];
    for (int j = 0; j < kBranches; ++j) branch[j] = grindHost(mid, kA, kBranchB[j], kIters);
    return sumFourHost(branch[0], branch[1], branch[2], branch[3]);
}

std::vector<float> diamondHost(const std::vector<float>& in) {
    std::unordered_map<uint32_t, float> byBits;  // keyed by the input's bits: -0 and NaNs stay apart
    std::vector<float> out(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        uint32_t bits = 0;
        std::memcpy(&bits, &in[i], sizeof bits);
        auto it = byBits.find(bits);
        if (it == byBits.end()) it = byBits.emplace(bits, diamondElementHost(in[i])).first;
        out[i] = it->second;
    }
    return out;
}

std::vector<float> diamondHostForKey(uint64_t key) { return diamondHost(diamondInput(key)); }

}  // namespace day52
