// The runner call as asked (runner_client.h): answers shared between the
// processes of a run, each call traced, a timed call's GPU state read around
// it, and the call made in a session or a process of its own.
#include "harness/runner_client.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <list>
#include <map>
#include <sstream>
#include <utility>

#include "harness/answer_cache.h"
#include "harness/gpu_state.h"
#include "harness/sha256.h"
#include "harness/text.h"
#include "runner_client_internal.h"

namespace grading {
namespace detail {

RunnerCallTotals& totals() {
    static RunnerCallTotals t;
    return t;
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? std::string() : std::string(v);
}

std::string labelOf(const RunnerCall& call) { return call.label.empty() ? call.subcommand : call.label; }

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, sep)) {
        if (!part.empty()) parts.push_back(part);
    }
    return parts;
}

std::string formatSeconds(double s) {
    std::ostringstream out;
    out << s;
    return out.str();
}

namespace {

RunnerOutcome dispatch(const RunnerCall& call) {
    // GRADING_SANITIZER=memcheck[,racecheck,...]: one run under each tool,
    // the first report fails the call.
    const std::vector<std::string> tools = split(env("GRADING_SANITIZER"), ',');
    // Under a sanitizer every call is a process of its own: compute-sanitizer
    // reports at the end of the process.
    if (tools.empty() && sessionsOn()) return sessionCall(call);
    if (tools.empty() || call.subcommand == protocol::Probe::kName) return callOnce(call, "");
    RunnerOutcome outcome;
    for (const std::string& tool : tools) {
        outcome = callOnce(call, tool);
        if (!outcome.ok()) break;
    }
    return outcome;
}

size_t answerBytes(const RunnerOutcome& o) {
    size_t bytes = 0;
    for (const auto& [name, field] : o.result.fields()) bytes += field.bytes.size();
    return bytes;
}

// GRADING_CALL_TRACE=<file>: one line per runner call appended there (the
// call's label, ms from asking to the verdict, ms the runner took to answer,
// answer bytes, ms of those it held the GPU exclusively, when it was asked in ms
// since the epoch, the runner, and "ok" or the first 80 characters of why it
// failed): where a report's, a case's or a student's time goes, call by call
// (GRADING_TRACE sums them per case).
void traceCall(const RunnerCall& call, const std::string& label, const RunnerOutcome& o, double seconds,
               double exclusiveSeconds) {
    const char* path = std::getenv("GRADING_CALL_TRACE");
    if (path == nullptr || *path == '\0') return;
    const size_t bytes = answerBytes(o);
    const auto askedAt = std::chrono::system_clock::now() - std::chrono::duration<double>(seconds);
    std::ofstream out(path, std::ios::app);
    out << label << "\t" << std::lround(seconds * 1000.0) << "\t"
        << std::lround(o.process.seconds * 1000.0) << "\t" << bytes << "\t"
        << std::lround(exclusiveSeconds * 1000.0) << "\t"
        << std::chrono::duration_cast<std::chrono::milliseconds>(askedAt.time_since_epoch()).count() << "\t"
        << call.runner << "\t" << (o.ok() ? "ok" : tsvField(o.message.substr(0, 80))) << "\n";
}

RunnerOutcome tracedDispatch(const RunnerCall& call) {
    const auto start = Clock::now();
    const double exclusiveBefore = totals().exclusiveCallSeconds;
    RunnerOutcome o = dispatch(call);
    traceCall(call, labelOf(call), o, std::chrono::duration<double>(Clock::now() - start).count(),
              totals().exclusiveCallSeconds - exclusiveBefore);
    return o;
}

bool& answersShared() {
    static bool on = true;
    return on;
}

// What names a runner's answer to a request: the runner (its path, which is
// one student's, and its contents), the sanitizers it runs under, the
// subcommand and the request's bytes. Empty where the runner cannot be read:
// then nothing is shared.
std::string sharedAnswerKey(const RunnerCall& call) {
    static std::map<std::string, std::string> runnerContents;  // a runner does not change during a run
    auto [known, fresh] = runnerContents.try_emplace(call.runner);
    if (fresh) known->second = sha256File(call.runner);
    if (known->second.empty()) return "";
    const std::string request = call.input.serialize();
    return "runner answer\t" + call.runner + "\t" + known->second + "\t" + env("GRADING_SANITIZER") + "\t" +
           call.subcommand + "\t" + contentKey(request.data(), request.size());
}

// An answer larger than this is shared within its process only: a class's
// largest answers (hundreds of MiB a student) would fill the disk.
constexpr size_t kMaxKeptAnswerBytes = size_t{64} << 20;
// What the answers this process keeps for its own later calls may hold in
// all; the oldest go first.
constexpr size_t kProcessAnswerBytes = size_t{1} << 30;

// The answers and hangs this process met, for its own later calls of the
// same key: the next gate that judges the same run reads it here, also
// where no folder keeps answers or the answer is too large for one.
class ProcessAnswers {
public:
    std::optional<RunnerOutcome> find(const std::string& key) const {
        for (const auto& [k, o] : kept_) {
            if (k == key) return o;
        }
        return std::nullopt;
    }

    void keep(const std::string& key, const RunnerOutcome& o) {
        const size_t size = answerBytes(o);
        if (size > kProcessAnswerBytes) return;
        kept_.emplace_front(key, o);
        bytes_ += size;
        while (bytes_ > kProcessAnswerBytes) {
            bytes_ -= answerBytes(kept_.back().second);
            kept_.pop_back();
        }
    }

private:
    std::list<std::pair<std::string, RunnerOutcome>> kept_;  // newest first
    size_t bytes_ = 0;
};

ProcessAnswers& processAnswers() {
    static ProcessAnswers answers;
    return answers;
}

// The bytes another process of this run kept under `key`, if any.
std::optional<std::string> keptBytes(const std::string& key) {
    std::string bytes;
    const bool kept = loadAnswer(key, [&bytes](size_t count) -> void* {
        bytes.resize(count);
        return bytes.data();
    });
    if (!kept) return std::nullopt;
    return bytes;
}

// The answer another process of this run kept for this call, if any.
std::optional<RunnerOutcome> sharedAnswer(const RunnerCall& call, const std::string& key) {
    const std::optional<std::string> bytes = keptBytes(key);
    if (!bytes) return std::nullopt;
    Expected<Record> answer = Record::parse(*bytes);
    RunnerOutcome o;
    if (!answer || !acceptAnswer(o, std::move(answer).value()).empty()) return std::nullopt;
    o.process.started = true;
    o.process.exitCode = protocol::kResultExitCode;  // as the runner that answered it ended
    ++totals().answersReused;
    traceCall(call, labelOf(call) + " (answer reused)", o, 0.0, 0.0);
    return o;
}

// The hang another process of this run met asking the same runner the same
// request under the same limits, if any: its message, as the call would
// end again.
std::optional<RunnerOutcome> sharedHang(const RunnerCall& call, const std::string& hangKey) {
    std::optional<std::string> message = keptBytes(hangKey);
    if (!message || message->empty()) return std::nullopt;
    RunnerOutcome o;
    o.status = RunnerOutcome::Status::Failed;
    o.message = std::move(*message);
    o.process.started = true;
    o.process.timedOut = true;
    ++totals().answersReused;
    traceCall(call, labelOf(call) + " (hang reused)", o, 0.0, 0.0);
    return o;
}

// What this process, or another of the run (`fromFolder`), already met for
// `key`: an answer or a hang, read back and counted as reused.
std::optional<RunnerOutcome> metBefore(const RunnerCall& call, const std::string& key, const char* what,
                                       std::optional<RunnerOutcome> (*fromFolder)(const RunnerCall&,
                                                                                  const std::string&)) {
    if (std::optional<RunnerOutcome> mine = processAnswers().find(key)) {
        ++totals().answersReused;
        traceCall(call, labelOf(call) + " (" + what + " reused)", *mine, 0.0, 0.0);
        return mine;
    }
    std::optional<RunnerOutcome> kept = fromFolder(call, key);
    if (kept) processAnswers().keep(key, *kept);
    return kept;
}

// The call made: a timed one with the GPU's state read before and after it,
// and made once more when the GPU throttled meanwhile.
RunnerOutcome ask(const RunnerCall& call) {
    if (!call.exclusiveGpu) return tracedDispatch(call);
    GpuStateLog& log = timedCallGpuLog();
    RunnerOutcome outcome;
    for (int attempt = 0; attempt < 2; ++attempt) {
        const std::optional<GpuState> before = readGpuState(gpuOf());
        outcome = tracedDispatch(call);
        const std::optional<GpuState> after = readGpuState(gpuOf());
        // The runner's own figure (its process holds the submission): kept
        // only as a time, context for the reader, never for a verdict.
        if (outcome.ok() && outcome.device.hostRoundTripUs.value_or(0.0) > 0.0) {
            log.hostRoundTripsUs.push_back(static_cast<float>(*outcome.device.hostRoundTripUs));
        }
        for (const auto& s : {before, after}) {
            if (s) log.readings.push_back(*s);
        }
        const bool throttled = (before && before->throttled()) || (after && after->throttled());
        if (!outcome.ok() || !throttled || attempt == 1) break;
        ++log.remeasured;
    }
    return outcome;
}

// A failure a neighbour's runner may have caused rather than this call's
// code: the device's memory, or the device, taken by another process.
bool neighbourMayHaveCaused(const RunnerOutcome& o) {
    if (o.ok() || o.cannotRunHere() || o.process.timedOut) return false;
    for (const char* name : {"cudaErrorMemoryAllocation", "cudaErrorDevicesUnavailable", "cudaErrorLaunchTimeout"}) {
        if (o.message.find(name) != std::string::npos) return true;
    }
    return false;
}

// Such a call is asked once more alone (every GPU slot of this machine's
// grading held, so no other call runs beside it) before its failure counts.
// A process does so until kFailedAloneRetries calls failed alone as well, so
// code that fails so on purpose cannot hold the GPU for long; a call that
// passed alone was a neighbour's victim and does not spend that budget, up
// to kAloneRetries in all, so code that fails only in a crowd cannot either.
// A call that held the GPU already is not asked again.
constexpr int kFailedAloneRetries = 4;
constexpr int kAloneRetries = 16;

RunnerOutcome askAloneAfterResourceFailure(const RunnerCall& call) {
    RunnerOutcome outcome = ask(call);
    RunnerCallTotals& t = totals();
    if (!neighbourMayHaveCaused(outcome) || holdsGpuExclusively(call) || t.failedAlone >= kFailedAloneRetries ||
        t.retriedAlone >= kAloneRetries) {
        return outcome;
    }
    ++t.retriedAlone;
    ExclusiveGpuScope alone;
    outcome = ask(call);
    if (!outcome.ok()) ++t.failedAlone;
    return outcome;
}

}  // namespace
}  // namespace detail

const RunnerCallTotals& runnerCallTotals() { return detail::totals(); }

void shareRunnerAnswers(bool on) { detail::answersShared() = on; }

RunnerOutcome callRunner(const RunnerCall& call) {
    using namespace detail;
    const std::string key = call.answerShared && answersShared() ? sharedAnswerKey(call) : "";
    if (key.empty()) return askAloneAfterResourceFailure(call);
    if (std::optional<RunnerOutcome> kept = metBefore(call, key, "answer", sharedAnswer)) return std::move(*kept);
    const std::string hangKey = key + "\thang within " + formatSeconds(call.timeLimitSeconds) + " s, stall " +
                                formatSeconds(call.stallSeconds) + " s";
    if (std::optional<RunnerOutcome> hung = metBefore(call, hangKey, "hang", sharedHang)) return std::move(*hung);
    RunnerOutcome o = askAloneAfterResourceFailure(call);
    if (o.ok()) {
        processAnswers().keep(key, o);
        if (answerBytes(o) <= kMaxKeptAnswerBytes) {
            const std::string bytes = o.result.serialize();
            keepAnswer(key, bytes.data(), bytes.size());
        }
    } else if (o.process.timedOut) {
        processAnswers().keep(hangKey, o);
        keepAnswer(hangKey, o.message.data(), o.message.size());
    }
    return o;
}

}  // namespace grading
