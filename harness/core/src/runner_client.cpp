#include "harness/runner_client.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "harness/gpu_slots.h"

namespace grading {
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

SandboxPolicy& policy() {
    static SandboxPolicy p = SandboxPolicy::Preferred;
    return p;
}

// The exit status the runner's own failure report goes with.
int exitFor(const std::string& kind) {
    if (kind == "bad-input") return runner_exit::kBadInput;
    if (kind == "cuda-error") return runner_exit::kCudaError;
    if (kind == "guard-violation") return runner_exit::kGuardViolation;
    if (kind == "contract-violation") return runner_exit::kContractViolation;
    if (kind == "no-device") return runner_exit::kNoDevice;
    return -1;
}

// What the channel carried: the records in order, or why it is not a
// sequence of records.
struct Channel {
    std::vector<Record> records;
    std::string problem;
};

Channel readChannel(const ProcessResult& p) {
    Channel c;
    size_t pos = 0;
    while (pos < p.channel.size()) {
        Expected<Record> r = Record::parseNext(p.channel, &pos);
        if (!r) {
            c.problem = r.error();
            break;
        }
        c.records.push_back(std::move(r).value());
    }
    if (p.channelOverflow) c.problem = "the answer was larger than the channel takes";
    return c;
}

RunnerOutcome callOnce(const RunnerCall& call, const std::string& sanitizer) {
    RunnerOutcome o;
    const std::string label = call.label.empty() ? call.subcommand : call.label;
    const std::string who = "the runner for `" + label + "`";

    // A private folder for this call alone: the request, and the runner's
    // TMPDIR and HOME; removed with whatever the runner left in it.
    TempDir dir;
    if (!call.input.save(dir.file("request.rec"))) {
        o.message = "cannot write the runner's request in " + dir.path();
        return o;
    }
    // Submitted code runs in the sandbox; the instructor's own may run without.
    const std::string& unavailable = sandboxUnavailable();
    const bool sandboxed = unavailable.empty() && policy() != SandboxPolicy::Off;
    if (!sandboxed && !sandboxTurnedOff() && policy() == SandboxPolicy::Required) {
        o.message = who + " was not started: the sandbox cannot start (" + unavailable +
                    "), and submitted code is not run without it; set GRADING_SANDBOX=off to grade without a "
                    "sandbox, which gives the submission the grader's rights";
        return o;
    }
    if (!sandboxed && !sandboxTurnedOff() && policy() != SandboxPolicy::Off) {
        static bool told = false;
        if (!told) std::fprintf(stderr, "note: runners of the instructor's code run unsandboxed: %s\n", unavailable.c_str());
        told = true;
    }
    const std::string runner = sandboxed ? kSandboxRunner : call.runner;
    const std::string request = sandboxed ? kSandboxRequest : dir.file("request.rec");

    std::vector<std::string> argv;
    const std::string tool = env("GRADING_COMPUTE_SANITIZER");
    if (!sanitizer.empty()) {
        argv = tool.empty() ? std::vector<std::string>{"/usr/bin/env", "compute-sanitizer"} : std::vector<std::string>{tool};
        argv.insert(argv.end(), {"--tool", sanitizer, "--error-exitcode", std::to_string(kSanitizerFound),
                                 "--print-limit", "3"});
        // GRADING_SANITIZER_FLAGS: more of compute-sanitizer's own, e.g. "--leak-check full".
        for (const std::string& flag : split(env("GRADING_SANITIZER_FLAGS"), ' ')) argv.push_back(flag);
    }
    argv.insert(argv.end(), {runner, call.subcommand, "--in", request});

    ProcessOptions options;
    options.timeLimitSeconds = call.timeLimitSeconds * (sanitizer.empty() ? 1.0 : kSanitizerSlowdown);
    options.channel = true;
    // Only what CUDA needs: nothing of the grader's (its seed, its mode, its
    // paths) reaches submitted code.
    options.cleanEnvironment = true;
    options.inherit = {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_MODULE_LOADING"};
    options.environment["TMPDIR"] = dir.path();
    options.environment["HOME"] = dir.path();
    const std::string gpus = assignedGpus();
    if (!gpus.empty()) options.environment["CUDA_VISIBLE_DEVICES"] = gpus;
    const std::string visible = gpus.empty() ? env("CUDA_VISIBLE_DEVICES") : gpus;
    SandboxedCommand boxed;
    if (sandboxed) {
        boxed = sandboxCommand(argv, call.runner, dir.file("request.rec"), SandboxLimits{}, options);
        if (!sanitizer.empty() && !tool.empty()) {
            // A sanitizer named by path (not one under /usr) is bound in where it is.
            const auto end = std::find(boxed.argv.begin(), boxed.argv.end(), "--");
            boxed.argv.insert(end, {"--ro-bind", tool, tool});
        }
        argv = boxed.argv;
    }
    const GpuSlot slot(visible.empty() ? "0" : split(visible, ',').front(), call.exclusiveGpu);
    o.process = runProcess(argv, options);
    removeSandboxCgroup(boxed.cgroup);
    if (sandboxed && o.process.signal == 0 && o.process.exitCode > 128 && o.process.exitCode < 128 + 65) {
        // bwrap reports its child's death by signal as 128 + the signal.
        o.process.signal = o.process.exitCode - 128;
        o.process.exitCode = -1;
    }
    const ProcessResult& p = o.process;
    const std::string where = lastBreadcrumb(p.err);
    const std::string lastSeen = where.empty() ? "" : " (it was in " + where + ")";
    const Channel channel = readChannel(p);

    if (!p.started) {
        o.message = who + " could not start: " + p.startError;
    } else if (p.timedOut) {
        o.message = who + " did not finish in " + formatSeconds(options.timeLimitSeconds) + " s" + lastSeen;
    } else if (!sanitizer.empty() && p.exitCode == kSanitizerFound) {
        o.message = "compute-sanitizer (" + sanitizer + ") found an error in `" + label + "`" + lastSeen + ": " +
                    firstSanitizerError(p.out + "\n" + p.err);
    } else if (channel.records.size() > 1) {
        o.message = who + " answered " + std::to_string(channel.records.size()) +
                    " times: something other than the runner wrote to its channel (submitted code writing "
                    "after, or before, the runner's own answer)";
    } else if (!channel.problem.empty()) {
        o.message = who + " sent a broken answer" + lastSeen + ": " + channel.problem;
    } else if (p.signal != 0) {
        o.message = who + " was " + describeEnd(p) + lastSeen + "; stderr: " + tail(p.err, 600);
    } else if (channel.records.empty()) {
        const std::string errors = linesWithPrefix(p.err, "error: ");
        o.message = p.exitCode == runner_exit::kOk
                        ? who + " exited with status 0 without a complete result" + lastSeen +
                              "; a submission that calls exit() ends the runner like this"
                        : who + " failed (" + describeEnd(p) + ") without an answer" + lastSeen + ": " +
                              (errors.empty() ? "stderr: " + tail(p.err, 600) : errors);
    } else if (Expected<protocol::Failure> failure = protocol::decode<protocol::Failure>(channel.records.front());
               failure) {
        if (failure->kind == "no-device" && p.exitCode == runner_exit::kNoDevice) {
            o.status = RunnerOutcome::Status::NoDevice;
            o.message = "no usable CUDA device: " + failure->message;
        } else {
            o.message = who + " failed (" + describeEnd(p) + "): " + failure->message;
            if (exitFor(failure->kind) != p.exitCode) {
                o.message += " [and it exited with " + describeEnd(p) + ", not the status of a " + failure->kind + "]";
            }
        }
    } else if (p.exitCode != runner_exit::kOk) {
        o.message = who + " sent a result and then " + describeEnd(p) + lastSeen +
                    ": a result counts only from a runner that ends with status 0";
    } else if (Expected<protocol::DeviceInfo> device = protocol::decode<protocol::DeviceInfo>(channel.records.front());
               !device) {
        o.message = who + " sent a result without the device it ran on: " + device.error();
    } else {
        o.status = RunnerOutcome::Status::Ok;
        o.result = channel.records.front();
        o.device = std::move(device).value();
    }
    return o;
}

}  // namespace

void setSandboxPolicy(SandboxPolicy p) { policy() = p; }

std::vector<std::string> sanitizerTools() { return split(env("GRADING_SANITIZER"), ','); }

double timeLimitScale() { return sanitizerTools().empty() ? 1.0 : kSanitizerSlowdown; }

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

RunnerOutcome callRunner(const RunnerCall& call) {
    // GRADING_SANITIZER=memcheck[,racecheck,...]: one run under each tool,
    // the first report fails the call.
    const std::vector<std::string> tools = sanitizerTools();
    if (tools.empty() || call.subcommand == protocol::Probe::kName) return callOnce(call, "");
    RunnerOutcome outcome;
    for (const std::string& tool : tools) {
        outcome = callOnce(call, tool);
        if (!outcome.ok()) break;
    }
    return outcome;
}

}  // namespace grading
