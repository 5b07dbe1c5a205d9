#include "harness/gate.h"

#include <cmath>
#include <sstream>

namespace grading {

GateResult checkPositiveTimes(std::string id, const std::vector<std::pair<std::string, double>>& figuresMs) {
    if (figuresMs.empty()) return GateResult::fail(std::move(id), "no timings were reported");
    for (const auto& [name, ms] : figuresMs) {
        if (!(ms > 0.0) || !std::isfinite(ms)) {
            std::ostringstream s;
            s << name << " is not a positive time: " << ms << " ms";
            return GateResult::fail(std::move(id), s.str());
        }
    }
    return GateResult::pass(std::move(id));
}

}  // namespace grading
