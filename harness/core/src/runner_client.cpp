#include "harness/runner_client.h"

#include <sstream>
#include <stdexcept>
#include <filesystem>
#include <cstdlib>

namespace grading {
namespace {

std::string linesWithPrefix(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    std::string line;
    std::string joined;
    while (std::getline(in, line)) {
        if (line.compare(0, prefix.size(), prefix) == 0) {
            if (!joined.empty()) joined += "; ";
            joined += line.substr(prefix.size());
        }
    }
    return joined;
}

std::string tail(const std::string& text, size_t maxChars) {
    std::string t = text.size() > maxChars ? "..." + text.substr(text.size() - maxChars) : text;
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    return t;
}

std::string formatSeconds(double s) {
    std::ostringstream out;
    out << s;
    return out.str();
}

}  // namespace

TempDir::TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/grading-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot create a temporary directory from " + pattern);
    }
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::string lastBreadcrumb(const std::string& stderrText) {
    const std::string marker = "at: ";
    size_t pos = stderrText.rfind("\n" + marker);
    if (pos == std::string::npos) {
        if (stderrText.compare(0, marker.size(), marker) != 0) return {};
        pos = 0;
    } else {
        pos += 1;
    }
    const size_t end = stderrText.find('\n', pos);
    return stderrText.substr(pos + marker.size(),
                             end == std::string::npos ? std::string::npos : end - pos - marker.size());
}

namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? std::string() : std::string(v);
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, sep)) {
        if (!part.empty()) parts.push_back(part);
    }
    return parts;
}

// ctest with a resource spec gives each test its GPUs as
// CTEST_RESOURCE_GROUP_0_GPUS="id:1,slots:1"; the runner then sees only those.
std::string assignedGpus() {
    if (env("CTEST_RESOURCE_GROUP_COUNT").empty()) return {};
    std::string ids;
    for (const std::string& allocation : split(env("CTEST_RESOURCE_GROUP_0_GPUS"), ';')) {
        for (const std::string& field : split(allocation, ',')) {
            if (field.compare(0, 3, "id:") == 0) ids += (ids.empty() ? "" : ",") + field.substr(3);
        }
    }
    return ids;
}

// The first error compute-sanitizer printed: its "=========" lines after
// the banner, up to three.
std::string firstSanitizerError(const std::string& output) {
    std::istringstream in(output);
    std::string line;
    std::string found;
    int taken = 0;
    while (std::getline(in, line) && taken < 3) {
        const std::string marker = "========= ";
        if (line.compare(0, marker.size(), marker) != 0) continue;
        const std::string text = line.substr(marker.size());
        if (text.find("COMPUTE-SANITIZER") != std::string::npos || text.find_first_not_of(' ') == std::string::npos) {
            continue;
        }
        found += (found.empty() ? "" : " | ") + text.substr(text.find_first_not_of(' '));
        ++taken;
    }
    return found;
}

constexpr int kSanitizerFound = 86;
constexpr double kSanitizerSlowdown = 20.0;

RunnerOutcome callOnce(const RunnerCall& call, const std::string& sanitizer) {
    RunnerOutcome o;
    std::string label = call.label;
    if (label.empty()) {
        label = call.subcommand;
        for (const std::string& a : call.args) label += " " + a;
    }
    const std::string who = "the runner for `" + label + "`";

    TempDir dir;
    std::vector<std::string> argv;
    if (!sanitizer.empty()) {
        const std::string tool = env("GRADING_COMPUTE_SANITIZER");
        argv = tool.empty() ? std::vector<std::string>{"/usr/bin/env", "compute-sanitizer"} : std::vector<std::string>{tool};
        argv.insert(argv.end(), {"--tool", sanitizer, "--error-exitcode", std::to_string(kSanitizerFound),
                                 "--print-limit", "3"});
    }
    argv.insert(argv.end(), {call.runner, call.subcommand, "--out", dir.file("result.rec")});
    if (call.input != nullptr) {
        if (!call.input->save(dir.file("input.rec"))) {
            o.message = "cannot write the runner's input file in " + dir.path();
            return o;
        }
        argv.push_back("--in");
        argv.push_back(dir.file("input.rec"));
    }
    argv.insert(argv.end(), call.args.begin(), call.args.end());

    ProcessOptions options;
    options.timeLimitSeconds = call.timeLimitSeconds * (sanitizer.empty() ? 1.0 : kSanitizerSlowdown);
    const std::string gpus = assignedGpus();
    if (!gpus.empty()) options.environment["CUDA_VISIBLE_DEVICES"] = gpus;
    o.process = runProcess(argv, options);
    const ProcessResult& p = o.process;
    const std::string where = lastBreadcrumb(p.err);
    const std::string lastSeen = where.empty() ? "" : " (it was in " + where + ")";

    if (!p.started) {
        o.message = who + " could not start: " + p.startError;
    } else if (p.timedOut) {
        o.message = who + " did not finish in " + formatSeconds(options.timeLimitSeconds) + " s" + lastSeen;
    } else if (p.signal != 0) {
        o.message = who + " was " + describeEnd(p) + lastSeen + "; stderr: " + tail(p.err, 600);
    } else if (!sanitizer.empty() && p.exitCode == kSanitizerFound) {
        o.message = "compute-sanitizer (" + sanitizer + ") found an error in `" + label + "`" + lastSeen + ": " +
                    firstSanitizerError(p.out + "\n" + p.err);
    } else if (p.exitCode == runner_exit::kNoDevice) {
        o.status = RunnerOutcome::Status::NoDevice;
        const std::string reason = linesWithPrefix(p.err, "no-device: ");
        o.message = "no usable CUDA device: " + (reason.empty() ? tail(p.err, 300) : reason);
    } else if (p.exitCode != runner_exit::kOk) {
        const std::string errors = linesWithPrefix(p.err, "error: ");
        o.message = who + " failed (" + describeEnd(p) + "): " +
                    (errors.empty() ? "stderr: " + tail(p.err, 600) : errors);
    } else {
        Expected<Record> result = Record::load(dir.file("result.rec"));
        if (!result) {
            o.message = who + " exited with status 0 without a complete result" + lastSeen + ": " +
                        result.error() + "; a submission that calls exit() ends the runner like this";
        } else {
            o.status = RunnerOutcome::Status::Ok;
            o.result = std::move(result).value();
        }
    }
    return o;
}

}  // namespace

RunnerOutcome callRunner(const RunnerCall& call) {
    // GRADING_SANITIZER=memcheck[,racecheck,...]: one run under each tool,
    // the first report fails the call.
    const std::vector<std::string> tools = split(env("GRADING_SANITIZER"), ',');
    if (tools.empty() || call.subcommand == "probe") return callOnce(call, "");
    RunnerOutcome outcome;
    for (const std::string& tool : tools) {
        outcome = callOnce(call, tool);
        if (!outcome.ok()) break;
    }
    return outcome;
}

}  // namespace grading
