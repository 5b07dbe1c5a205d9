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

RunnerOutcome callRunner(const RunnerCall& call) {
    RunnerOutcome o;
    std::string label = call.label;
    if (label.empty()) {
        label = call.subcommand;
        for (const std::string& a : call.args) label += " " + a;
    }
    const std::string who = "the runner for `" + label + "`";

    TempDir dir;
    std::vector<std::string> argv = {call.runner, call.subcommand, "--out", dir.file("result.rec")};
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
    options.timeLimitSeconds = call.timeLimitSeconds;
    o.process = runProcess(argv, options);
    const ProcessResult& p = o.process;
    const std::string where = lastBreadcrumb(p.err);
    const std::string lastSeen = where.empty() ? "" : " (it was in " + where + ")";

    if (!p.started) {
        o.message = who + " could not start: " + p.startError;
    } else if (p.timedOut) {
        o.message = who + " did not finish in " + formatSeconds(call.timeLimitSeconds) + " s" + lastSeen;
    } else if (p.signal != 0) {
        o.message = who + " was " + describeEnd(p) + lastSeen + "; stderr: " + tail(p.err, 600);
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

}  // namespace grading
