#include "harness/testing.h"

#include <iostream>
#include <map>
#include <random>

namespace grading::testing {
namespace {

std::string& runnerPath() {
    static std::string path;
    return path;
}

std::string& runnerDir() {
    static std::string dir;
    return dir;
}

bool takeFlag(const std::string& arg, const std::string& name, std::string* value) {
    const std::string prefix = "--" + name + "=";
    if (arg.compare(0, prefix.size(), prefix) != 0) return false;
    *value = arg.substr(prefix.size());
    return true;
}

}  // namespace

const std::string& runnerUnderTest() { return runnerPath(); }

std::string runnerInDir(const std::string& name) { return runnerDir() + "/" + name; }

uint64_t gradingSeed() {
    static const uint64_t seed = [] {
        const char* fromEnv = std::getenv("GRADING_SEED");
        if (fromEnv != nullptr && *fromEnv != '\0') return static_cast<uint64_t>(std::stoull(fromEnv));
        std::random_device device;
        return (static_cast<uint64_t>(device()) << 32) ^ device();
    }();
    ::testing::Test::RecordProperty("seed", std::to_string(seed));
    std::cout << "seed: " << seed << " (replay with GRADING_SEED=" << seed << ")\n";
    return seed;
}

const RunnerOutcome& probe(const std::string& runner) {
    static std::map<std::string, RunnerOutcome> cache;
    auto it = cache.find(runner);
    if (it == cache.end()) {
        RunnerCall call;
        call.runner = runner;
        call.subcommand = "probe";
        call.timeLimitSeconds = 60;
        it = cache.emplace(runner, callRunner(call)).first;
        if (it->second.ok()) {
            const Record& r = it->second.result;
            const std::string device = r.text("device").ok() ? r.text("device").value() : "?";
            const std::string bus = r.text("pci_bus_id").ok() ? r.text("pci_bus_id").value() : "?";
            ::testing::Test::RecordProperty("device", device + " at " + bus);
            std::cout << "device: " << device << " at " << bus << "\n";
        }
    }
    return it->second;
}

void expectGate(const GateResult& result, const std::string& context) {
    ::testing::Test::RecordProperty("gate", result.id);
    std::cout << "GATE " << result.id << (result.passed ? " PASS " : " FAIL ") << context
              << (result.passed ? "" : ": " + result.message) << "\n";
    EXPECT_TRUE(result.passed) << result.id << " failed, " << context << ": " << result.message;
}

}  // namespace grading::testing

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    for (int i = 1; i < argc; ++i) {
        std::string value;
        if (grading::testing::takeFlag(argv[i], "runner", &value)) {
            grading::testing::runnerPath() = value;
        } else if (grading::testing::takeFlag(argv[i], "runner-dir", &value)) {
            grading::testing::runnerDir() = value;
        } else {
            std::cerr << "unknown argument " << argv[i] << "\n";
            return 2;
        }
    }
    return RUN_ALL_TESTS();
}
