#include "reference.h"

#include <cmath>
#include <utility>

namespace day34 {

void heatStepHost(const double* in, double* out, int n, double r) {
    const size_t stride = static_cast<size_t>(n);
    for (int row = 0; row < n; ++row) {
        for (int col = 0; col < n; ++col) {
            const size_t c = static_cast<size_t>(row) * stride + static_cast<size_t>(col);
            if (row == 0 || col == 0 || row == n - 1 || col == n - 1) {
                out[c] = in[c];
            } else {
                out[c] = in[c] + r * (in[c - 1] + in[c + 1] + in[c - stride] + in[c + stride] - 4.0 * in[c]);
            }
        }
    }
}

std::vector<double> hostReference(const std::vector<float>& initial, int n, int steps, double r) {
    std::vector<double> cur(initial.begin(), initial.end());
    std::vector<double> next(cur.size());
    for (int step = 0; step < steps; ++step) {
        heatStepHost(cur.data(), next.data(), n, r);
        cur.swap(next);
    }
    return cur;
}

float maxAbs(const std::vector<float>& grid) {
    float biggest = 0.0f;
    for (float v : grid) {
        if (std::fabs(v) > biggest) biggest = std::fabs(v);
    }
    return biggest;
}

double maxAbs(const std::vector<double>& grid) {
    double biggest = 0.0;
    for (double v : grid) {
        if (std::fabs(v) > biggest) biggest = std::fabs(v);
    }
    return biggest;
}

long long countNonFinite(const std::vector<float>& grid) {
    long long bad = 0;
    for (float v : grid) {
        if (!std::isfinite(v)) ++bad;
    }
    return bad;
}

bool onRing(size_t index, int n) {
    const size_t stride = static_cast<size_t>(n);
    const size_t row = index / stride;
    const size_t col = index % stride;
    return row == 0 || col == 0 || row + 1 == stride || col + 1 == stride;
}

}  // namespace day34
