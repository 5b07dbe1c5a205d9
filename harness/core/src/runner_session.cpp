// Runner sessions: one runner process serves the calls of a grading process,
// each request and answer a frame (record.h). A failure ends the session; the
// next call starts another, so every call keeps its own verdict.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "harness/device_memory_ledger.h"
#include "harness/gpu_state.h"
#include "harness/protocol.h"
#include "harness/text.h"
#include "runner_client_internal.h"

namespace grading {
namespace detail {
namespace {

struct Session {
    Child child;
    std::unique_ptr<TempDir> dir;
    std::string cgroup;
    UidLease uid;  // given back with the session, after its cgroup is removed
    bool sandboxed = false;
    std::string channel;  // bytes read from fd 3 and not yet taken
    // The runner's threads once it had answered its first call: the CUDA
    // runtime's and driver's, which later calls find there. Unset until then.
    std::optional<std::set<int>> threadsAfterFirstAnswer;
};

std::function<std::optional<uint64_t>(int)>& memoryReader() {
    static std::function<std::optional<uint64_t>(int)> reader;
    return reader;
}

const std::string kOverMemory = std::string("a runner may hold (") + kDeviceMemoryBoundVariable + "), so it was ended";

// Why the session must end for the device memory it holds, or "".
std::string overMemory(const Session& s) {
    const uint64_t bound = runnerMemoryBound();
    if (bound == 0 || !s.child.started()) return "";
    const std::optional<uint64_t> held =
        memoryReader() ? memoryReader()(s.child.pid) : deviceMemoryBelow(s.child.pid);
    if (!held || *held <= bound) return "";
    return formatText("held %.1f GiB of device memory, more than the %.0f GiB %s: %s", *held / kBytesPerGiB,
                      bound / kBytesPerGiB, kOverMemory.c_str(), kNeighboursNeedTheMemory);
}

// The processes a session's tree holds besides the runner, read from
// outside (processesBelow), however they are named: sandboxed, the tree is
// bwrap, its init in the PID namespace (bwrap's only child) and the runner
// (the init's first child); unsandboxed, the runner is the root. Anything
// else the submission started (a child, a daemon reparented to the init),
// which could work on between calls.
struct SessionTree {
    std::vector<TreeProcess> below;
    int init = -1;    // sandboxed: the PID namespace's init
    int runner = -1;  // the runner's pid (unsandboxed: the session's child)
};

SessionTree treeOf(const Session& s) {
    SessionTree t;
    t.below = processesBelow(s.child.pid);
    const auto firstChildOf = [&t](int parent) {
        const TreeProcess* first = nullptr;
        for (const TreeProcess& p : t.below) {
            if (p.parent == parent && (!first || p.started < first->started)) first = &p;
        }
        return first ? first->pid : -1;
    };
    t.init = s.sandboxed ? firstChildOf(s.child.pid) : -1;
    t.runner = s.sandboxed ? firstChildOf(t.init) : s.child.pid;
    return t;
}

std::vector<TreeProcess> startedBesideTheRunner(const SessionTree& tree) {
    std::vector<TreeProcess> others;
    for (const TreeProcess& p : tree.below) {
        if (p.pid != tree.init && p.pid != tree.runner && !p.ended) others.push_back(p);
    }
    return others;
}

std::string processesLeft(const SessionTree& tree) {
    const std::vector<TreeProcess> others = startedBesideTheRunner(tree);
    if (others.empty()) return "";
    const std::string count = std::to_string(others.size()) + (others.size() == 1 ? " process" : " processes");
    return "left " + count + " running beside it once it had answered (pid " + std::to_string(others.front().pid) +
           ", \"" + others.front().name + "\"): a submission starts no process; its work ends with the call";
}

// The threads a call left running, read from /proc by the grader, so that
// nothing in the runner's process (a weak definition of a library function,
// a thread's new name) can hide one: a thread named as the runner's main
// thread (threads inherit their creator's name; the CUDA runtime and driver
// name theirs), and after the first call any thread the first answer did
// not find. A thread about to end gets a moment.
std::string threadsLeft(Session& s, int runner) {
    if (runner <= 0) return "";
    std::vector<TreeProcess> left;
    std::vector<TreeProcess> threads;
    for (int attempt = 0; attempt < 20; ++attempt) {
        threads = threadsOf(runner);
        std::string mainName;
        for (const TreeProcess& t : threads) {
            if (t.pid == runner) mainName = t.name;
        }
        left.clear();
        for (const TreeProcess& t : threads) {
            const bool unknown = s.threadsAfterFirstAnswer && s.threadsAfterFirstAnswer->count(t.pid) == 0;
            if (t.pid != runner && !t.ended && (t.name == mainName || unknown)) left.push_back(t);
        }
        if (left.empty()) break;
        usleep(5000);
    }
    if (left.empty()) {
        if (!s.threadsAfterFirstAnswer) {
            s.threadsAfterFirstAnswer.emplace();
            for (const TreeProcess& t : threads) s.threadsAfterFirstAnswer->insert(t.pid);
        }
        return "";
    }
    const std::string count = std::to_string(left.size()) + (left.size() == 1 ? " host thread" : " host threads");
    return "left " + count + " running once it had answered (thread " + std::to_string(left.front().pid) + ", \"" +
           left.front().name + "\"): a submission's threads must end before its function returns";
}

// Code the runner made for itself, read by the grader from the runner's
// memory map: an executable mapping that is anonymous, a memfd or a file the
// runner could write (its /tmp, /dev; unsandboxed, its own folder). The
// system-call filter refuses anonymous executable memory at once; a file
// mapped executable it must leave open, since the loader maps the CUDA
// driver that way. Read once an answer is in, so code mapped and unmapped
// within a call is not seen.
std::string codeMadeAtRunTime(const Session& s, int runner) {
    if (runner <= 0) return "";
    const std::optional<std::vector<CodeMapping>> code = codeMappingsOf(runner);
    if (!code) return "";
    for (const CodeMapping& m : *code) {
        std::string path = m.backing;
        const std::string deleted = " (deleted)";
        if (path.size() > deleted.size() && path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0) {
            path.resize(path.size() - deleted.size());
        }
        const bool kernels = path == "[vdso]" || path == "[vsyscall]" || path == "[uprobes]";
        const bool anonymous = path.empty() || (path.front() == '[' && !kernels);
        const bool written = path.rfind("/memfd:", 0) == 0 ||
                             (s.sandboxed ? writableInSandbox(path)
                                          : path.rfind(s.dir->path() + "/", 0) == 0 || path.rfind("/dev/", 0) == 0);
        if (anonymous || written) {
            return "ran code it made itself: " + (path.empty() ? std::string("anonymous memory") : path) +
                   " is mapped executable at " + m.range +
                   " once it had answered (a runner's code is the file it was built as, and the libraries it loads)";
        }
    }
    return "";
}

// How often a call's session has its memory read.
constexpr auto kMemoryReadEvery = std::chrono::milliseconds(100);

std::map<std::string, std::unique_ptr<Session>>& sessions() {
    static std::map<std::string, std::unique_ptr<Session>> open;
    return open;
}

// The session's end: a runner that is ending by itself (it answered with a
// failure, or closed its channel) is given a moment to, so its own status is
// the one reported; one that is not is killed.
int waitStatus(Session& s, bool kill) {
    int status = 0;
    bool reaped = false;
    for (int i = 0; !kill && i < 400 && !reaped; ++i) {
        const pid_t r = waitpid(s.child.pid, &status, WNOHANG);
        if (r == s.child.pid) reaped = true;
        else usleep(5000);
    }
    const int killed = stopChild(s.child);  // and anything it left behind in its group
    removeSandboxCgroup(s.cgroup);
    return reaped ? status : killed;
}

// The process result of an ended session from its wait status.
void fillEnd(ProcessResult& p, int status, bool sandboxed) {
    if (WIFEXITED(status)) p.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) p.signal = WTERMSIG(status);
    if (sandboxed) unwrapSandboxStatus(p);
}

// Reads what is ready on the session's descriptors within `waitMs`, with
// runProcess's bounds; false when the channel closed (the runner ended) or
// overflowed. A closed stdout or stderr is dropped, so poll does not spin on it.
// `sending`: part of the request is still to be written, so room in the
// runner's stdin also ends the wait, not only output.
bool pump(Session& s, ProcessResult& p, int waitMs, bool sending = false) {
    static const ProcessOptions bounds;
    int* const fds[3] = {&s.child.channel, &s.child.err, &s.child.out};
    pollfd polled[4];
    for (int i = 0; i < 3; ++i) polled[i] = {*fds[i], POLLIN, 0};
    polled[3] = {sending ? s.child.input : -1, POLLOUT, 0};
    if (poll(polled, 4, waitMs) <= 0) return true;
    char buffer[65536];
    bool open = true;
    for (int i = 0; i < 3; ++i) {
        if (*fds[i] < 0 || (polled[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
        const ssize_t n = i == 0 ? readOnto(*fds[i], s.channel) : read(*fds[i], buffer, sizeof buffer);
        if (n > 0 && i == 0) {
            if (s.channel.size() > bounds.channelCap) {
                p.channelOverflow = true;
                open = false;
            }
        } else if (n > 0) {
            appendCapped(i == 1 ? &p.err : &p.out, buffer, static_cast<size_t>(n), bounds.outputCap, &p.truncated);
        } else if (n == 0 || errno != EINTR) {
            if (i == 0) {
                open = false;
            } else {
                close(*fds[i]);
                *fds[i] = -1;
            }
        }
    }
    return open;
}

// The runner's session as the call finds it. One that wrote while nobody
// asked is over, and so is this call, whether or not the writer is still
// alive: its verdict. One that just ended is dropped, to start again.
std::optional<RunnerOutcome> dropEndedSession(const RunnerCall& call, std::unique_ptr<Session>& session,
                                              ProcessResult& p) {
    if (!session) return std::nullopt;
    const bool alive = pump(*session, p, 0);
    if (!session->channel.empty()) {
        Channel unasked;
        unasked.problem = "it answered before it was asked (" + std::to_string(session->channel.size()) +
                          " bytes on its channel between calls): something other than the runner wrote there";
        waitStatus(*session, true);
        session.reset();
        return judge(call, "", call.timeLimitSeconds, p, unasked, true);
    }
    if (!alive) {
        waitStatus(*session, true);
        session.reset();
    }
    return std::nullopt;
}

// A session already running has its process and CUDA context: its call
// gets the limit less their allowance, so a hang ends that much sooner.
double sessionLimit(const RunnerCall& call, bool running) {
    if (!running) return call.timeLimitSeconds;
    return std::max(call.timeLimitSeconds - kRunnerStartSeconds, std::min(call.timeLimitSeconds, kRunnerStartSeconds / 4));
}

// Starts the runner's session in `session`; the call's verdict where it
// could not.
std::optional<RunnerOutcome> startSession(const RunnerCall& call, double limit, std::unique_ptr<Session>& session,
                                          ProcessResult& p) {
    auto s = std::make_unique<Session>();
    s->dir = std::make_unique<TempDir>();
    Launch l = prepare(call, "", *s->dir, {"--session"}, "");
    if (std::optional<RunnerOutcome> refused = l.refusal()) return refused;
    s->child = startChild(l.argv, l.options, true);
    s->cgroup = l.cgroup;
    s->uid = std::move(l.uid);
    s->sandboxed = l.sandboxed;
    if (!s->child.started()) {
        removeSandboxCgroup(s->cgroup);
        p.started = false;
        p.startError = s->child.startError;
        return judge(call, "", limit, p, {}, true);
    }
    session = std::move(s);
    ++totals().processesStarted;
    return std::nullopt;
}

// The call's request as its session reads it: a frame naming the subcommand.
std::string requestFrame(const RunnerCall& call, const CallGpu& gpu) {
    Record request = withCallKind(call, true);
    request.putText("grading_subcommand", call.subcommand);
    if (gpu.lends()) request.putInt(protocol::kLendsField, 1);
    return request.frame();
}

// Progress (RunnerCall::stallSeconds): the runner's stderr growing, once it
// has left a breadcrumb in this call. Times are the runner's own, as the
// deadline's are: its waits for slots left out.
class StallWatch {
public:
    StallWatch(double stallSeconds, Clock::time_point start) : stallSeconds_(stallSeconds), progressAt_(start) {}

    bool stalled(const ProcessResult& p, Clock::time_point runnerNow) {
        if (p.err.size() != errSeen_) {
            errSeen_ = p.err.size();
            crumbSeen_ = crumbSeen_ || !lastBreadcrumb(p.err).empty();
            progressAt_ = runnerNow;
        }
        // Output past the cap is not seen growing: then only the limit holds.
        return stallSeconds_ > 0.0 && crumbSeen_ && !p.truncated &&
               runnerNow - progressAt_ > std::chrono::duration<double>(stallSeconds_);
    }

private:
    const double stallSeconds_;
    Clock::time_point progressAt_;
    size_t errSeen_ = 0;
    bool crumbSeen_ = false;
};

// How a call's exchange of frames with its session ended.
struct Exchange {
    FrameStatus status = FrameStatus::Incomplete;  // of the last frame the runner wrote
    Expected<Record> frame = Error{""};  // that frame's record, when Complete
    std::string misuse;    // a request for the GPU this call cannot make
    bool open = true;      // the runner reads its stdin, and its channel is open
    bool stalled = false;  // stopped for no progress: a timeout, named as a stall
    std::string overMemory;  // stopped for the device memory it held (overMemory)
};

// Writes what fits of `outgoing` past `*sent` (the input is non-blocking);
// false once the runner stopped reading.
bool writeSome(Session& s, const std::string& outgoing, size_t* sent) {
    while (*sent < outgoing.size()) {
        const ssize_t n = write(s.child.input, outgoing.data() + *sent, outgoing.size() - *sent);
        if (n > 0) {
            *sent += static_cast<size_t>(n);
        } else {
            return !(n < 0 && errno != EINTR && errno != EAGAIN);
        }
    }
    return true;
}

// Sends the request and answers the runner's requests for the GPU, until its
// answer or a broken frame comes, the runner ends, or the call's limit
// (waits for slots aside) or its stall passes; with `watchMemory`, or the
// session holds more device memory than a runner may.
Exchange exchange(Session& s, ProcessResult& p, CallGpu& gpu, std::string outgoing, Clock::time_point start,
                  double limit, double stallSeconds, bool watchMemory) {
    // A runner that closed its stdin (or died) while the request is written
    // makes write() fail with EPIPE, a failure of this call, instead of a
    // SIGPIPE that would end the grading process.
    static const bool brokenPipesIgnored = signal(SIGPIPE, SIG_IGN) != SIG_ERR;
    (void)brokenPipesIgnored;
    const auto deadline = [&] {  // waiting for slots mid-call is not the runner's time
        return start + gpu.waited() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
    };
    const auto msLeft = [&] {
        return std::max(0, static_cast<int>(std::ceil(
                               std::chrono::duration<double, std::milli>(deadline() - Clock::now()).count())));
    };
    StallWatch progress(stallSeconds, start);
    Exchange x;
    size_t sent = 0;
    Clock::time_point memoryReadAt = start;
    while (x.open && Clock::now() < deadline() && !(x.stalled = progress.stalled(p, Clock::now() - gpu.waited()))) {
        if (watchMemory && Clock::now() - memoryReadAt >= kMemoryReadEvery) {
            memoryReadAt = Clock::now();
            if (!(x.overMemory = overMemory(s)).empty()) break;
        }
        if (!writeSome(s, outgoing, &sent)) x.open = false;  // it stopped reading
        x.open = pump(s, p, std::min(msLeft(), 50), x.open && sent < outgoing.size()) && x.open;
        std::string payload;
        x.status = takeFrame(s.channel, &payload);
        if (x.status == FrameStatus::Incomplete) continue;
        if (x.status == FrameStatus::Complete) x.frame = Record::parse(payload);
        const std::string use =
            x.status == FrameStatus::Complete && x.frame ? protocol::gpuUseAsked(x.frame.value()) : "";
        if (use.empty()) break;  // the answer, or a broken frame
        x.misuse = gpu.ask(use);
        if (!x.misuse.empty()) break;
        outgoing.erase(0, sent);
        sent = 0;
        outgoing += protocol::gpuUseFrame(protocol::kGpuGo);
        x.status = FrameStatus::Incomplete;
    }
    return x;
}

// What the exchange leaves to judge: the answer, or why there is none.
Channel channelOf(Exchange& x, const ProcessResult& p) {
    Channel channel;
    if (!x.misuse.empty()) {
        channel.problem = x.misuse;
    } else if (x.status == FrameStatus::Complete) {
        if (x.frame) channel.records.push_back(std::move(x.frame).value());
        else channel.problem = x.frame.error();
    } else if (x.status == FrameStatus::Malformed) {
        channel.problem = "its channel carried something other than a framed answer: something other than the "
                          "runner wrote there";
    } else if (p.channelOverflow) {
        channel.problem = "the answer was larger than the channel takes";
    }
    return channel;
}

// Ends the session after a call that ended it: its failure report, a
// timeout, a crash, an early exit, or a second answer. What the runner
// wrote meanwhile joins `channel`; its exit status joins `p`.
void endSession(std::unique_ptr<Session>& session, ProcessResult& p, Channel& channel, bool timedOut,
                bool endingByItself) {
    Session& s = *session;
    p.timedOut = timedOut;
    if (endingByItself) {
        // Give a runner that reported a failure a moment to end by itself.
        for (int i = 0; i < 100 && pump(s, p, 20);) ++i;
        if (!s.channel.empty()) channel.records.push_back(Record{});
    }
    const int status = waitStatus(s, p.timedOut);
    if (!p.timedOut) fillEnd(p, status, s.sandboxed);
    session.reset();
}

// Ends a session that must not go on (the memory it holds): killed at once.
void killSession(std::unique_ptr<Session>& session) {
    waitStatus(*session, true);
    session.reset();
}

}  // namespace

bool sessionsOn() {
    const std::string v = env("GRADING_RUNNER_SESSIONS");
    return v != "0" && v != "off";
}

RunnerOutcome sessionCall(const RunnerCall& call) {
    std::unique_ptr<Session>& session = sessions()[call.runner];
    ProcessResult p;
    p.started = true;
    if (std::optional<RunnerOutcome> over = dropEndedSession(call, session, p)) return std::move(*over);
    const double limit = sessionLimit(call, session != nullptr);
    if (!session) {
        if (std::optional<RunnerOutcome> failed = startSession(call, limit, session, p)) return std::move(*failed);
    }

    CallGpu gpu(call);
    std::string request = requestFrame(call, gpu);
    const auto start = Clock::now();
    // A call holding the GPU alone (a measurement) is left undisturbed by
    // NVML's readings; what it holds is read after its answer.
    Exchange x =
        exchange(*session, p, gpu, std::move(request), start, limit, call.stallSeconds, !holdsGpuExclusively(call));
    const auto end = Clock::now();
    p.seconds = std::chrono::duration<double>(end - start - gpu.waited()).count();
    countCall(p.seconds, gpu.exclusiveSeconds(end));

    // A session that must not go on (what it holds or left): ended at once, the call failed.
    const auto killedFor = [&](const std::string& why) {
        killSession(session);
        keepTails(p, ProcessOptions{}.outputCap);
        RunnerOutcome o;
        o.message = "the runner for `" + labelOf(call) + "` " + why;
        o.process = std::move(p);
        return o;
    };
    // Memory kept past the answer counts as memory taken during the call.
    const std::string over = x.overMemory.empty() ? overMemory(*session) : x.overMemory;
    if (!over.empty()) return killedFor(over);
    Channel channel = channelOf(x, p);
    const bool answered = x.status == FrameStatus::Complete && channel.problem.empty();
    const bool failure = answered && protocol::decode<protocol::Failure>(channel.records.front()).ok();
    if (answered && !failure) {
        const SessionTree tree = treeOf(*session);
        std::string left = processesLeft(tree);
        if (left.empty()) left = threadsLeft(*session, tree.runner);
        if (left.empty()) left = codeMadeAtRunTime(*session, tree.runner);
        if (!left.empty()) return killedFor(left);
        // A second answer already waiting is a failure of this call (a later
        // one fails the next call, or the close).
        pump(*session, p, 1);
        if (session->channel.empty()) return judge(call, "", limit, p, std::move(channel), false);
        channel.records.push_back(Record{});
    }
    const bool timedOut = !answered && x.status == FrameStatus::Incomplete && x.open;
    endSession(session, p, channel, timedOut, !timedOut && (failure || !x.open));
    return judge(call, "", limit, p, std::move(channel), true, x.stalled);
}

}  // namespace detail

uint64_t runnerMemoryBound() { return deviceMemoryBound(std::getenv(kDeviceMemoryBoundVariable)); }

bool endedForDeviceMemory(const std::string& message) {
    return message.find(detail::kOverMemory) != std::string::npos;
}

void setRunnerMemoryReader(std::function<std::optional<uint64_t>(int pid)> reader) {
    detail::memoryReader() = std::move(reader);
}

namespace {

// Closes the runner's stdin, so it ends; what it writes before that came
// after its last answer.
std::string endSession(const std::string& runner, detail::Session& s) {
    close(s.child.input);
    s.child.input = -1;
    ProcessResult p;
    for (int i = 0; i < 250 && detail::pump(s, p, 20); ++i) {
    }
    std::string problem;
    if (!s.channel.empty()) {
        problem = "the runner " + runner + " wrote " + std::to_string(s.channel.size()) +
                  " bytes to its channel after its last answer: something other than the runner wrote there\n";
    }
    detail::waitStatus(s, false);
    return problem;
}

}  // namespace

std::string closeSessions() {
    std::string problems;
    for (auto& [runner, s] : detail::sessions()) {
        if (s) problems += endSession(runner, *s);
    }
    detail::sessions().clear();
    return problems;
}

std::string closeSession(const std::string& runner) {
    const auto it = detail::sessions().find(runner);
    if (it == detail::sessions().end()) return "";
    std::string problem = it->second ? endSession(runner, *it->second) : "";
    detail::sessions().erase(it);
    return problem;
}

}  // namespace grading
