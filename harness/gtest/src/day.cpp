// The day declaration's storage and the GoogleTest glue every suite shares:
// the seed, the device probe, and the GATE lines the report reads.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "harness/answer_cache.h"
#include "harness/day.h"
#include "harness/runner_client.h"
#include "harness/sha256.h"
#include "harness/shrink.h"
#include "harness/splitmix64.h"
#include "harness/testing.h"
#include "harness/text.h"
#include "harness/timing_stats.h"

namespace grading {

uint64_t caseSeed(uint64_t seed, const std::string& purpose) {
    return std::stoull(sha256Hex(purpose + "\n" + std::to_string(seed)).substr(0, 16), nullptr, 16);
}

void Day::gate(GateSpec spec, std::vector<GateCase> cases) {
    if (find(spec.id()) != nullptr) throw std::logic_error(name_ + " declares gate " + spec.id() + " twice");
    for (const std::string& id : spec.after()) {
        const DayGate* before = find(id);
        if (before == nullptr || before->spec.grades() != Grades::Student || spec.grades() != Grades::Student) {
            throw std::logic_error(spec.id() + " is graded after " + id +
                                   ", which is not a student gate declared before it");
        }
    }
    std::set<std::string> names;
    for (const GateCase& c : cases) {
        if (!names.insert(c.name).second) throw std::logic_error(spec.id() + " declares case " + c.name + " twice");
    }
    gates_.push_back({std::move(spec), std::move(cases)});
}

void Day::observe(std::string name, double limitSeconds, std::function<void(const CaseContext&)> run) {
    observations_.push_back({std::move(name), limitSeconds, std::move(run)});
}

void Day::chart(ChartSpec spec) {
    const auto refuse = [&](const std::string& why) {
        throw std::logic_error(name_ + "'s chart " + spec.id() + ": " + why);
    };
    if (spec.id().empty() || spec.id().find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
        refuse("an id is [a-z0-9-]");
    }
    for (const ChartSpec& c : charts_) {
        if (c.id() == spec.id()) refuse("declared twice");
    }
    std::regex figures;
    try {
        figures.assign(spec.figures());
    } catch (const std::regex_error& e) {
        refuse("figures is no regular expression: " + std::string(e.what()));
    }
    if (figures.mark_count() != spec.fields().size()) {
        refuse(std::to_string(figures.mark_count()) + " capture groups for " + std::to_string(spec.fields().size()) +
               " fields");
    }
    if (spec.value().empty()) refuse("no field for the figure's value");
    if (spec.vegaLite().find('<') != std::string::npos) refuse("its spec holds '<', which could end the page's script");
    charts_.push_back(std::move(spec));
}

const DayGate* Day::find(const std::string& id) const {
    for (const DayGate& g : gates_) {
        if (g.spec.id() == id) return &g;
    }
    return nullptr;
}

GateSpec* Day::spec(const std::string& id) {
    for (DayGate& g : gates_) {
        if (g.spec.id() == id) return &g.spec;
    }
    return nullptr;
}

std::vector<const GateCase*> runOrder(const DayGate& g) {
    std::vector<const GateCase*> order;
    for (const GateCase& c : g.cases) order.push_back(&c);
    std::stable_partition(order.begin(), order.end(), [](const GateCase* c) { return !c->exclusiveGpu; });
    return order;
}

namespace {
// `seen`: the gates asked about on the way here, so that requirements that
// name each other in a circle end the search.
std::string cannotPass(const Day& day, const std::string& id, const std::set<std::string>& failed,
                       std::set<std::string>& seen) {
    if (failed.count(id) != 0) return id + " failed";
    const DayGate* g = day.find(id);
    if (g == nullptr || !seen.insert(id).second) return "";
    for (const std::string& r : g->spec.prerequisites()) {
        if (failed.count(r) != 0) return "requires " + r + ", which failed";
        const std::string below = cannotPass(day, r, failed, seen);
        if (!below.empty()) return "requires " + r + ", which " + below;
    }
    return "";
}
}  // namespace

std::string cannotPass(const Day& day, const std::string& id, const std::set<std::string>& failed) {
    std::set<std::string> seen;
    return cannotPass(day, id, failed, seen);
}

std::string failureShape(const std::string& message) {
    const auto at = [&message](size_t i) { return i < message.size() ? static_cast<unsigned char>(message[i]) : 0; };
    const auto digit = [&at](size_t i) { return std::isdigit(at(i)) != 0; };
    const auto hexDigit = [&at](size_t i) { return std::isxdigit(at(i)) != 0; };
    std::string shape;
    for (size_t i = 0; i < message.size();) {
        // A minus before a number is its sign ("want -1": unreached), not
        // text: a distance that should be -1 and one that should be 2 are
        // the same kind of wrong. Between two numbers ("0-1", an edge) it stays.
        const bool sign = message[i] == '-' && digit(i + 1) && (i == 0 || std::isalnum(at(i - 1)) == 0);
        const bool hex = message.compare(i, 2, "0x") == 0 && hexDigit(i + 2);
        if (sign || hex || digit(i)) {
            size_t j = sign ? i + 1 : hex ? i + 2 : i;
            while (hex ? hexDigit(j) : digit(j)) ++j;
            shape += hex ? "0x#" : "#";
            i = j;
        } else {
            shape += message[i++];
        }
    }
    return shape;
}

bool shrinkingTurnedOff() {
    const char* v = std::getenv("GRADING_SHRINK");
    return v != nullptr && std::string(v) == "off";
}

bool shrinksFailure(const GateResult& failure, bool showsDetails) {
    static std::set<std::string> shrunk;
    return showsDetails && !shrinkingTurnedOff() && !endedForDeviceMemory(failure.message) &&
           shrunk.insert(failure.id).second;
}

std::string writeCounterexample(const std::string& call, const std::string& ext, const std::string& text) {
    namespace fs = std::filesystem;
    const char* dir = std::getenv("GRADING_COUNTEREXAMPLE_DIR");
    std::error_code ec;
    const fs::path folder = fs::absolute(dir != nullptr && *dir != '\0' ? fs::path(dir) : fs::path("counterexamples"), ec);
    if (ec) return "";
    fs::create_directories(folder, ec);
    std::string name;
    for (char c : call) name += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
    const fs::path file = folder / (name + "." + ext);
    std::ofstream out(file, std::ios::trunc);
    out << text;
    return out ? file.string() : "";
}

std::string smallestInputText(const ShrinkStats& search, const std::string& input, const std::string& failureOnIt,
                              const std::string& details, const std::string& file) {
    recordFigure("shrink_seconds", formatText("%.2f", search.seconds));
    recordFigure("shrink_wait_seconds", formatText("%.2f", search.waitedSeconds));
    recordFigure("shrink_other_failures", std::to_string(search.otherFailures));
    return "; smallest failing input found (" + std::to_string(search.calls) + " tries): " + input + ": " +
           (search.smaller ? failureOnIt : "this one") + (details.empty() ? "" : "; " + details) +
           (file.empty() ? "" : "; written to " + file);
}

// One line, whatever a picture's strings hold (words of an instructor's file):
// dump() escapes control characters, and invalid UTF-8 becomes U+FFFD.
void recordPicture(const std::string& call, const Picture& p) {
    nlohmann::json spec = nlohmann::json::parse(p.spec, nullptr, false);
    if (spec.is_discarded() || !spec.is_object()) return;  // a day's drawing bug draws nothing
    const nlohmann::json doc = {{"call", call}, {"caption", p.caption}, {"spec", std::move(spec)}};
    std::cout << "counterexample " << doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

namespace {

std::map<std::string, SpeedRamp>& policyRamps() {
    static std::map<std::string, SpeedRamp> ramps;
    return ramps;
}

}  // namespace

SpeedRamp speedRampFor(const std::string& id, const SpeedRamp& declared) {
    const auto it = policyRamps().find(id);
    return it == policyRamps().end() ? declared : it->second;
}

Expected<bool> applyPolicy(Day& day, const std::string& policyJson) {
    const nlohmann::json policy = nlohmann::json::parse(policyJson, nullptr, false);
    if (policy.is_discarded() || !policy.is_object()) return Error{"the policy is not a JSON object"};
    const auto gates = policy.find("gates");
    if (gates == policy.end()) return true;
    if (!gates->is_object()) return Error{"the policy's gates is not an object"};
    for (const auto& [id, settings] : gates->items()) {
        GateSpec* spec = day.spec(id);
        if (spec == nullptr) continue;  // another day's gate
        if (!settings.is_object()) return Error{"gates." + id + " is not an object"};
        if (const auto points = settings.find("points"); points != settings.end()) {
            if (!points->is_number_unsigned()) return Error{"gates." + id + ".points is not a whole number"};
            spec->points(points->get<int>());
        }
        if (const auto visibility = settings.find("visibility"); visibility != settings.end()) {
            if (!visibility->is_string()) return Error{"gates." + id + ".visibility is not a string"};
            spec->visibility(visibility->get<std::string>());
        }
        if (const auto ramp = settings.find("ramp"); ramp != settings.end()) {
            if (!ramp->is_object() || !ramp->contains("full_at") || !ramp->contains("zero_at") ||
                !(*ramp)["full_at"].is_number() || !(*ramp)["zero_at"].is_number()) {
                return Error{"gates." + id + ".ramp wants numbers full_at and zero_at"};
            }
            policyRamps()[id] = SpeedRamp{(*ramp)["full_at"].get<double>(), (*ramp)["zero_at"].get<double>()};
        }
    }
    return true;
}

std::string classBaselineKey(const CaseContext& ctx, const std::string& purpose, const std::string& runner) {
    const char* gpu = std::getenv("CUDA_VISIBLE_DEVICES");
    return purpose + "|seed " + std::to_string(ctx.seed) + "|" + runner + "|gpus " + (gpu != nullptr ? gpu : "");
}

GateResult speedCase(const CaseContext& ctx, const std::string& id, const std::string& what, int rounds,
                     const MeasureRuns& measure, const SpeedRamp& ramp) {
    // The student kit: nothing to compare with, so no score, and no failure
    // either (the instructor's grading has the solution).
    if (ctx.referenceRunner.empty()) {
        return GateResult::scored(id, 0.0, what + ": not measured here: this tree has no instructor solution to time "
                                                  "against, so no points");
    }
    std::vector<float> student, reference;
    std::string problem;
    // One call's runs onto `into`; false, with `problem` said, when it has none.
    const auto take = [&](const std::string& runner, std::vector<float>& into, const char* whose) {
        const Expected<std::vector<float>> runs = measure(runner);
        if (!runs) problem = what + ": no time for " + whose + " code: " + runs.error();
        else into.insert(into.end(), runs->begin(), runs->end());
        return runs.ok();
    };
    // A class's instructor.<day> measures the instructor alone and keeps the
    // rounds; its students' day tests read them back and measure themselves.
    const std::string key = classBaselineKey(
        ctx, "instructor rounds|" + id + "|" + what + "|" + std::to_string(rounds), ctx.referenceRunner);
    const bool instructorOnly = ctx.instructorTiming == InstructorTiming::MeasureOnce;
    const bool readBack = ctx.instructorTiming == InstructorTiming::ReadBackOnce && loadValues(key, reference);
    // An exclusive hold per measure (a clocked measure's calls share one),
    // not one scope over every round: on the H200 one scope (both runners
    // started first) cut a class of 32's drains from 59 s to 34 s but held
    // the GPU exclusively 101 s instead of 67 s, through the grader's checks
    // between calls; the timed tests took 177 s, not 164 s.
    for (int r = 0; r < rounds; ++r) {
        if (!readBack && !take(ctx.referenceRunner, reference, "the instructor's")) return GateResult::fail(id, problem);
        if (!instructorOnly && !take(ctx.runner, student, "the submission's")) return GateResult::fail(id, problem);
    }
    if (instructorOnly) {
        keepValues(key, reference);
        const TimingStats kept = summarize(reference);
        recordFigure("instructor_median_ms", formatText("%.4f", kept.medianMs));
        recordFigure("instructor_runs", std::to_string(kept.samplesMs.size()));
        return GateResult::pass(id);
    }
    return scoreSpeed(id, what, summarize(student), summarize(reference), speedRampFor(id, ramp),
                      readBack ? "the instructor timed once for the class" : "timed interleaved");
}

Expected<float> clockedRunMs(const ClockedCall& call, int runs, uint64_t orderSeed) {
    // A timed call alone holds the GPU exclusively only while it measures:
    // its uploads and checks, which the clock sees too, would share the GPU
    // and could wait behind a neighbour's kernels for longer than N runs.
    const ExclusiveGpuScope alone;
    // A runner's first call of a kind loads its kernels and grows its memory
    // pools (on the H100, 100 ms more than the next): a short call takes that.
    const Expected<double> warmUp = call(std::max(1, runs / 10));
    if (!warmUp) return Error{warmUp.error()};
    SplitMix64 order(orderSeed);
    std::string noTime;
    for (int attempt = 0; attempt < kClockedAttempts; ++attempt) {
        // The longer call first or second, as the seed draws: a runner that
        // delayed the call it guessed was the shorter one, to shrink the
        // difference, guesses blind (its launches start alike either way).
        const bool longerFirst = order.next() & 1;
        const Expected<double> first = call(longerFirst ? 2 * runs : runs);
        if (!first) return Error{first.error()};
        const Expected<double> second = call(longerFirst ? runs : 2 * runs);
        if (!second) return Error{second.error()};
        const double once = longerFirst ? *second : *first;
        const double twice = longerFirst ? *first : *second;
        const double ms = (twice - once) * 1e3 / runs;
        if (ms > 0.0) return static_cast<float>(ms);
        // Not positive: a hiccup of the host longer than N runs. Taken again.
        noTime = formatText("the grader's clock found no time in %d more runs (%.3f ms for %d, %.3f ms for %d; %d tries)",
                            runs, once * 1e3, runs, twice * 1e3, 2 * runs, kClockedAttempts);
    }
    return Error{noTime};
}

Expected<std::vector<std::vector<float>>> sampleUntilSteady(const MeasureSets& measure, double targetSpread,
                                                          int minCalls, int maxCalls) {
    // The GPU held exclusively from the first timed call to the last: between
    // calls the grader only adds up times, and a fresh hold per call would
    // wait each time for every call started elsewhere meanwhile.
    const ExclusiveGpuScope exclusive;
    std::vector<std::vector<float>> sets;
    for (int call = 0; call < maxCalls; ++call) {
        Expected<std::vector<std::vector<float>>> more = measure();
        if (!more) return Error{more.error()};
        if (sets.empty()) sets.resize(more->size());
        if (more->size() != sets.size()) return Error{"the timed runs came back in a different shape on call " +
                                                      std::to_string(call + 1)};
        for (size_t k = 0; k < sets.size(); ++k) sets[k].insert(sets[k].end(), (*more)[k].begin(), (*more)[k].end());
        const bool steady = std::all_of(sets.begin(), sets.end(), [targetSpread](const std::vector<float>& s) {
            return s.empty() || summarize(s).relativeSpread() <= targetSpread;
        });
        if (steady && call + 1 >= minCalls) break;
    }
    return sets;
}

std::vector<InstructorFile> instructorFiles(const std::string& listFile) {
    std::vector<InstructorFile> files;
    std::ifstream list(listFile);
    for (std::string path; std::getline(list, path);) {
        if (path.empty()) continue;
        std::string base = path.substr(path.find_last_of('/') + 1);
        for (char& ch : base) {
            if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
        }
        files.push_back({path, "file" + std::to_string(files.size()) + "_" + base});
    }
    return files;
}

void recordFigure(const std::string& key, const std::string& value) {
    ::testing::Test::RecordProperty(key, value);
    std::cout << "figure " << key << " = " << value << "\n";
}

namespace testing {

Expected<uint64_t> parseSeed(const std::string& text) {
    const std::string why = "GRADING_SEED must be a decimal number from 0 to 18446744073709551615, got \"" +
                            text.substr(0, 40) + "\"";
    if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos) {
        return Error{why};
    }
    uint64_t value = 0;
    for (char c : text) {
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (value > (UINT64_MAX - digit) / 10) return Error{why};
        value = value * 10 + digit;
    }
    return value;
}

uint64_t gradingSeedValue() {
    static const uint64_t seed = [] {
        const char* fromEnv = std::getenv("GRADING_SEED");
        if (fromEnv != nullptr && *fromEnv != '\0') {
            const Expected<uint64_t> parsed = parseSeed(fromEnv);
            if (!parsed) {
                std::cerr << parsed.error() << "\n";
                std::exit(2);
            }
            return parsed.value();
        }
        std::random_device device;
        return (static_cast<uint64_t>(device()) << 32) ^ device();
    }();
    return seed;
}

uint64_t gradingSeed() {
    const uint64_t seed = gradingSeedValue();
    ::testing::Test::RecordProperty("seed", std::to_string(seed));
    std::cout << "seed: " << seed << " (replay with GRADING_SEED=" << seed << ")\n";
    return seed;
}

std::string& machineRunner() {
    static std::string path;
    return path;
}

const RunnerOutcome& probe(const std::string& runner) {
    static std::map<std::string, RunnerOutcome> cache;
    auto it = cache.find(runner);
    if (it == cache.end()) {
        RunnerCall call;
        call.runner = runner;
        call.subcommand = protocol::Probe::kName;
        call.timeLimitSeconds = 60;
        RunnerOutcome outcome = callRunner(call);
        const std::string& trusted = machineRunner();
        if (outcome.noDevice() && !trusted.empty() && trusted != runner) {
            const RunnerOutcome& machine = probe(trusted);
            if (machine.ok()) {
                outcome.status = RunnerOutcome::Status::Failed;
                outcome.message = "the runner answered \"" + outcome.message + "\", but the course's runner, with no "
                                  "submitted code, runs here on " + machine.device.device +
                                  ": only the grader says whether this machine can grade";
            }
        }
        it = cache.emplace(runner, std::move(outcome)).first;
        if (it->second.ok()) {
            const protocol::DeviceInfo& d = it->second.device;
            ::testing::Test::RecordProperty("device", d.device + " at " + d.pciBusId);
            std::cout << "device: " << d.device << " at " << d.pciBusId << "\n";
        }
    }
    return it->second;
}

void printGate(const GateResult& result, const std::string& context) {
    std::cout << "GATE " << result.id << (result.passed ? " PASS " : " FAIL ") << context
              << (result.passed ? "" : ": " + result.message) << "\n";
    // The line the report reads a scored gate's points from (report.cpp).
    if (result.score) std::cout << "SCORE " << result.id << " " << *result.score << " " << result.message << "\n";
}

void expectGate(const GateResult& result, const std::string& context) {
    ::testing::Test::RecordProperty("gate", result.id);
    printGate(result, context);
    EXPECT_TRUE(result.passed) << result.id << " failed, " << context << ": " << result.message;
}

}  // namespace testing
}  // namespace grading
