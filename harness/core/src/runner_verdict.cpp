// What a runner answered, read and judged.
#include <signal.h>

#include <sstream>

#include "harness/protocol.h"
#include "harness/syscall_filter.h"
#include "runner_client_internal.h"

namespace grading {
namespace detail {
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

}  // namespace

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

std::string acceptAnswer(RunnerOutcome& o, Record answer) {
    Expected<protocol::DeviceInfo> device = protocol::decode<protocol::DeviceInfo>(answer);
    if (!device) return device.error();
    o.status = RunnerOutcome::Status::Ok;
    o.result = std::move(answer);
    o.device = std::move(device).value();
    return "";
}

RunnerOutcome judge(const RunnerCall& call, const std::string& sanitizer, double limitSeconds, ProcessResult p,
                    Channel channel, bool ended, bool stalled) {
    keepTails(p, ProcessOptions{}.outputCap);
    RunnerOutcome o;
    const std::string label = labelOf(call);
    const std::string who = "the runner for `" + label + "`";
    const std::string where = lastBreadcrumb(p.err);
    const std::string lastSeen = where.empty() ? "" : " (it was in " + where + ")";
    if (!ended) p.exitCode = protocol::kResultExitCode;  // a live session: only its answer counts

    if (!p.started) {
        o.message = who + " could not start: " + p.startError;
    } else if (p.timedOut && stalled) {
        o.message = who + " made no progress for " + formatSeconds(call.stallSeconds) + " s" + lastSeen +
                    ", so it was stopped before its " + formatSeconds(limitSeconds) + " s limit";
    } else if (p.timedOut) {
        o.message = who + " did not finish in " + formatSeconds(limitSeconds) + " s" + lastSeen;
    } else if (!sanitizer.empty() && p.exitCode == kSanitizerFound) {
        o.message = "compute-sanitizer (" + sanitizer + ") found an error in `" + label + "`" + lastSeen + ": " +
                    firstSanitizerError(p.out + "\n" + p.err);
    } else if (channel.records.size() > 1) {
        o.message = who + " answered " + std::to_string(channel.records.size()) +
                    " times: something other than the runner wrote to its channel (submitted code writing "
                    "after, or before, the runner's own answer)";
    } else if (!channel.problem.empty()) {
        o.message = who + " sent a broken answer" + lastSeen + ": " + channel.problem;
    } else if (p.signal == SIGSYS) {
        // The handler's line comes last, just before the signal ends the runner.
        const std::string prefix = kRefusedCallPrefix;
        const size_t at = p.err.rfind(prefix);
        const std::string call = at == std::string::npos
                                     ? "something the filter refuses with SIGSYS blocked, or set a SIGSYS handler "
                                       "of its own (either way the call goes unnamed)"
                                     : p.err.substr(at + prefix.size(),
                                                    p.err.find('\n', at) - at - prefix.size());
        o.message = who + " was stopped by the sandbox's system-call filter" + lastSeen + ": it called " + call;
    } else if (p.signal != 0) {
        o.message = who + " was " + describeEnd(p) + lastSeen + "; stderr: " + tail(p.err, 600);
    } else if (channel.records.empty()) {
        const std::string errors = linesWithPrefix(p.err, "error: ");
        o.message = p.exitCode == protocol::kResultExitCode
                        ? who + " exited with status 0 without a complete result" + lastSeen +
                              "; a submission that calls exit() ends the runner like this"
                        : who + " failed (" + describeEnd(p) + ") without an answer" + lastSeen + ": " +
                              (errors.empty() ? "stderr: " + tail(p.err, 600) : errors);
    } else if (Expected<protocol::Failure> failure = protocol::decode<protocol::Failure>(channel.records.front());
               failure) {
        const protocol::FailureKind* kind = protocol::failureKindNamed(failure->kind);
        if (kind == &protocol::kNoDevice && p.exitCode == kind->exitCode) {
            o.status = RunnerOutcome::Status::NoDevice;
            o.message = std::string(kind->description) + ": " + failure->message;
        } else {
            o.message = who + " failed (" + describeEnd(p) + "): " + failure->message;
            if (kind == nullptr) {
                o.message += " [and its failure kind \"" + failure->kind.substr(0, 40) + "\" is none of the protocol's]";
            } else if (kind->exitCode != p.exitCode) {
                o.message += " [and it exited with " + describeEnd(p) + ", not " + std::to_string(kind->exitCode) +
                             ", the status of a " + kind->name + " (" + kind->description + ")]";
            }
        }
    } else if (p.exitCode != protocol::kResultExitCode) {
        o.message = who + " sent a result and then " + describeEnd(p) + lastSeen +
                    ": a result counts only from a runner that ends with status 0";
    } else if (const std::string missing = acceptAnswer(o, std::move(channel.records.front())); !missing.empty()) {
        o.message = who + " sent a result without the device it ran on: " + missing;
    }
    o.process = std::move(p);
    return o;
}

}  // namespace detail

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

}  // namespace grading
