#include "cases.h"

#include <map>
#include <stdexcept>

#include "harness/answer_cache.h"
#include "harness/day.h"
#include "harness/testing.h"
#include "inputs.h"
#include "reference.h"

namespace day52::cases {

double runSeconds(int diamonds, double holdMsPerDiamond) {
    const double mebiElements = static_cast<double>(kElems) / (1 << 20);
    return kCallSeconds + diamonds * (kSecondsPerMebiElement * mebiElements + kHoldSlack * holdMsPerDiamond / 1000.0);
}

double timingSeconds() {
    // One shape: warm-ups and timed runs, the timeline's run and the first rig's.
    return runSeconds(kWarmupRuns + kTimedRuns + 2);
}

uint64_t inputKey(uint64_t seed, uint64_t salt, int run) {
    // SHA-256 (caseSeed), not an invertible mix: a runner that sees keys
    // learns nothing of the seed, nor of any other case's input.
    const uint64_t key = grading::caseSeed(seed, "day52 input " + std::to_string(salt) + " " + std::to_string(run));
    return key <= kHandMadeInputKey ? key + 2 : key;  // never the course's or the hand-made input
}

std::vector<uint64_t> inputKeys(uint64_t seed, uint64_t salt, int runs) {
    std::vector<uint64_t> keys;
    for (int r = 0; r < runs; ++r) keys.push_back(inputKey(seed, salt, r));
    return keys;
}

const std::vector<float>& reference(uint64_t key) {
    static std::map<uint64_t, std::vector<float>> cache;
    auto it = cache.find(key);
    if (it == cache.end()) {
        // Once for a whole class (answer_cache.h): over 0.1 s of the host's time a key.
        std::vector<float> out = grading::answerOnce<float>("day52 diamond output for input key " + std::to_string(key),
                                                            [key] { return diamondHostForKey(key); });
        it = cache.emplace(key, std::move(out)).first;
    }
    return it->second;
}

namespace {

std::string keyText(const std::vector<uint64_t>& keys) {
    return std::to_string(keys.size()) + (keys.size() == 1 ? " diamond" : " diamonds");
}

}  // namespace

grading::Reply<protocol::Diamond> diamonds(const std::string& runner, const std::vector<uint64_t>& keys,
                                           double limitSeconds) {
    protocol::RunsRequest request;
    request.inputKeys = keys;
    return grading::call<protocol::Diamond>(runner, request, {limitSeconds, "diamond, " + keyText(keys), false});
}

grading::Reply<protocol::Serial> serial(const std::string& runner, const std::vector<uint64_t>& keys,
                                        double limitSeconds) {
    protocol::RunsRequest request;
    request.inputKeys = keys;
    return grading::call<protocol::Serial>(runner, request, {limitSeconds, "serial, " + keyText(keys), false});
}

grading::Reply<protocol::Stress> stress(const std::string& runner, const std::vector<uint64_t>& keys,
                                        double limitSeconds) {
    protocol::StressRequest request;
    request.inputKeys = keys;
    for (size_t r = 0; r < keys.size(); ++r) request.heldBranch.push_back(heldBranch(static_cast<int>(r)));
    request.upstreamHoldMs = kUpstreamHoldMs;
    request.branchHoldMs = kBranchHoldMs;
    return grading::call<protocol::Stress>(runner, request, {limitSeconds, "stress, " + keyText(keys), false});
}

grading::Reply<protocol::NoTiming> noTiming(const std::string& runner, double limitSeconds) {
    return grading::call<protocol::NoTiming>(runner, {}, {limitSeconds, "no-timing", false});
}

grading::Reply<protocol::Timing> timing(const std::string& runner, const std::string& shape, uint64_t warmupKey,
                                        uint64_t timedKey, double limitSeconds, bool exclusiveGpu) {
    protocol::TimingRequest request;
    request.shape = shape;
    request.warmupKey = warmupKey;
    request.timedKey = timedKey;
    request.warmups = kWarmupRuns;
    request.runs = kTimedRuns;
    grading::CallOptions options{limitSeconds, "timing, " + shape, exclusiveGpu};
    options.answerShared = true;
    return grading::call<protocol::Timing>(runner, request, options);
}

grading::Reply<protocol::Clocked> clocked(const std::string& runner, const std::string& shape, uint64_t key, int runs,
                                          double limitSeconds, bool exclusiveGpu) {
    protocol::ClockedRequest request;
    request.shape = shape;
    request.key = key;
    request.runs = runs;
    return grading::call<protocol::Clocked>(
        runner, request, {limitSeconds, "clocked, " + shape + ", " + std::to_string(runs) + " runs", exclusiveGpu});
}

grading::Reply<protocol::Broken> broken(const std::string& runner, uint64_t key, double limitSeconds,
                                        bool exclusiveGpu) {
    protocol::BrokenRequest request;
    request.inputKey = key;
    return grading::call<protocol::Broken>(runner, request, {limitSeconds, "broken", exclusiveGpu});
}

std::string serialBaselineKey(const grading::CaseContext& ctx, const std::string& what) {
    return grading::classBaselineKey(ctx, "52.overlap course serial|" + what, ctx.courseRunner);
}

CourseMachine courseMachine(const grading::CaseContext& ctx) {
    std::vector<int> sms;
    std::vector<char> device;
    if (grading::loadValues(serialBaselineKey(ctx, "sm_count"), sms) && sms.size() == 1 &&
        grading::loadValues(serialBaselineKey(ctx, "device"), device)) {
        return {sms[0], std::string(device.begin(), device.end())};
    }
    const auto& probed = grading::testing::probe(ctx.courseCodeRunner()).device;
    CourseMachine m{static_cast<int>(probed.smCount), probed.device};
    if (ctx.instructorTiming == grading::InstructorTiming::MeasureOnce && m.smCount > 0) {
        grading::keepValues(serialBaselineKey(ctx, "sm_count"), std::vector<int>{m.smCount});
        grading::keepValues(serialBaselineKey(ctx, "device"), std::vector<char>(m.device.begin(), m.device.end()));
    }
    return m;
}

std::vector<std::vector<float>> perRun(const std::vector<float>& out, size_t runs) {
    std::vector<std::vector<float>> split;
    if (out.size() != runs * kElems) {  // let the gate name the sizes
        split.assign(runs, {});
        if (!split.empty()) split.front() = out;
        return split;
    }
    for (size_t r = 0; r < runs; ++r) {
        split.emplace_back(out.begin() + static_cast<std::ptrdiff_t>(r * kElems),
                           out.begin() + static_cast<std::ptrdiff_t>((r + 1) * kElems));
    }
    return split;
}

std::vector<std::vector<Launch>> launchesPerRun(const protocol::RunsResult& r, size_t runs) {
    std::vector<std::vector<Launch>> split(runs);
    const size_t n = r.launchRun.size();
    if (r.launchKernel.size() != n || r.launchTarget.size() != n || r.launchBlocks.size() != n ||
        r.launchThreads.size() != n || r.launchElements.size() != n) {
        throw std::runtime_error("the runner's launch log lists " + std::to_string(n) +
                                 " runs but not as many kernels, targets, shapes and element counts");
    }
    for (size_t k = 0; k < n; ++k) {
        const int run = r.launchRun[k];
        if (run < 0 || static_cast<size_t>(run) >= runs) {
            throw std::runtime_error("the runner's launch log names run " + std::to_string(run) + " of " +
                                     std::to_string(runs));
        }
        split[run].push_back(
            {r.launchKernel[k], r.launchTarget[k], r.launchBlocks[k], r.launchThreads[k], r.launchElements[k]});
    }
    return split;
}

std::vector<std::string> splitNames(const std::string& commaList) {
    std::vector<std::string> names;
    std::string name;
    for (char c : commaList + ",") {
        if (c == ',') {
            if (!name.empty()) names.push_back(name);
            name.clear();
        } else {
            name += c;
        }
    }
    return names;
}

}  // namespace day52::cases
