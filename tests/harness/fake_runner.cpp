// A stand-in runner with scripted behaviour, one per subcommand, so the
// grading side of the protocol can be tested without a GPU:
//
//   fake_runner <subcommand> --in REQUEST      (answers on fd 3)
//
// Well-behaved: ok, echo-input, echo-env, open-fds, leave-file. Broken or
// hostile: hang (named by the request's "name", if any), crash, early-exit,
// truncated, garbage, no-device, error, out-of-memory, out-of-memory-once (a
// neighbour's doing, then not),
// guard, forged-after-failure, second-answer, result-then-status,
// failure-with-status-0, no-device-info; in a session, leave-child and
// leave-daemon answer and leave a process running, leave-thread and
// leave-renamed-thread a thread (join-thread ends its own first), map-memfd-exec and map-tmp-exec code of
// its own, kept mapped,
// count-own-threads says how many it sees itself (fake_runner_blind: none;
// fake_runner_forger answers a session's probe and then, to anything else,
// forged verdict lines on stderr and exit status 3). Escapes, each
// reporting what it managed (the sandbox's tests): whoami, read-file, write-file, daemon,
// connect, fork-bomb, fill-disk, signal-pid. The system-call filter's
// (fake_runner_filtered, which installs it as a real runner does):
// make-thread, fork, fork-with-sigsys-blocked, exec, exec-memory,
// mprotect-exec, map-file-exec, own-sigsys-handler. Anything else is a usage error
// (exit 2, no answer).
#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "harness/protocol.h"
#include "harness/record.h"
#include "harness/runner_client.h"
#include "harness/syscall_filter.h"

#ifdef FAKE_RUNNER_BLINDS_ITSELF
// A library function replaced by one of the runner's own, as a submission's
// definition could preempt libc's: this process can no longer list its
// threads. What the grader reads of it from outside is unchanged.
extern "C" DIR* opendir(const char* name) {
    static const auto real = reinterpret_cast<DIR* (*)(const char*)>(dlsym(RTLD_NEXT, "opendir"));
    if (std::strstr(name, "/task") != nullptr) {
        errno = ENOENT;
        return nullptr;
    }
    return real(name);
}
#endif

#ifdef FAKE_RUNNER_FILTERED
// As every real runner does (harness/cuda/src/runner_main.cpp). The plain
// fake runner leaves it out: its escapes test the sandbox's other defences
// as they stand without the filter.
GRADING_INSTALL_SYSCALL_FILTER();
#endif

namespace {

using grading::Record;

void say(const std::string& line) {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
}

void send(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = write(grading::kChannelFd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) return;
        done += static_cast<size_t>(n);
    }
}

Record withDevice(Record r) {
    grading::protocol::DeviceInfo info;
    info.device = "fake device";
    info.smCount = 4;
    info.computeCapability = 75;
    info.pciBusId = "0000:00:00.0";
    // As runnerMain does, a timed call's answer carries the host's round trip.
    if (grading::protocol::isTimedCall(r)) info.hostRoundTripUs = 11.5;
    grading::protocol::encodeInto(info, r);
    return r;
}

Record sampleResult() {
    Record r;
    r.putInt("levels", 3);
    r.putInts("dist", {0, 1, 2, -1});
    r.putDouble("ms", 1.25);
    return withDevice(r);
}

std::string failure(const std::string& kind, const std::string& message) {
    say("error: " + message);
    return grading::protocol::encode(grading::protocol::Failure{kind, message}).serialize();
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? "(unset)" : v;
}

[[noreturn]] void sleepForever() {
    for (;;) pause();
}

// A hanging runner takes the request's "name", if any, for a test to find it by.
void takeNameOf(const Record& request) {
    const grading::Expected<std::string> name = request.text("name");
    if (name.ok()) prctl(PR_SET_NAME, name.value().c_str());
}

}  // namespace

// Session mode: requests framed on stdin, answers framed on fd 3. The
// subcommand is the request's "grading_subcommand": ok and echo-input answer;
// crash, hang and exit-zero end the session badly; flood writes
// "flood_mib" MiB to stdout and stderr, then answers; crawl leaves "steps"
// breadcrumbs "step_ms" apart, then answers; twice answers twice;
// late answers, then writes again once "go_file" exists (or after a pause)
// and writes "sent_file"; late-exit then exits;
// close-input answers with its stdin closed, then exits a moment later.
// measure asks for the GPU exclusively for "measure_ms" and then shared again, as
// a timed call's TimedSection does when the request says so ("sections"
// times, default once), and answers after "after_ms" more; ask-anyway asks for it exclusively in any call;
// ask-exclusive-twice asks twice without giving it back. lend writes
// "started_file" (if given), then works "work_ms" in steps of
// kLendIntervalMs, lending the GPU after each when the request lets it;
// lend-anyway lends it once whatever the request says; lend-while-exclusive
// lends it in the middle of a measurement.
// A process left running past the answer, named like the runner: a child
// of the runner, or a daemon (setsid, forked twice) reparented away from it.
void leaveProcess(bool daemon) {
    const pid_t child = fork();
    if (child != 0) {
        if (daemon) waitpid(child, nullptr, 0);
        return;
    }
    if (daemon) {
        setsid();
        if (fork() != 0) _exit(0);
    }
    prctl(PR_SET_NAME, "runner");
    sleep(20);
    _exit(0);
}

int session() {
    std::string buffer;
    char chunk[4096];
    bool answered = false;
    // The next frame from the grader, or nothing when it closed stdin.
    const auto nextFrame = [&](std::string* payload) {
        grading::FrameStatus status;
        while ((status = grading::takeFrame(buffer, payload)) == grading::FrameStatus::Incomplete) {
            const ssize_t n = read(0, chunk, sizeof chunk);
            if (n <= 0) return false;
            buffer.append(chunk, static_cast<size_t>(n));
        }
        return true;
    };
    // Asks for the GPU as `use`; true once the grader said go.
    const auto askForGpu = [&](const char* use) {
        send(grading::protocol::gpuUseFrame(use));
        std::string reply;
        if (!nextFrame(&reply)) return false;
        const grading::Expected<Record> go = Record::parse(reply);
        return go && grading::protocol::gpuUseAsked(go.value()) == grading::protocol::kGpuGo;
    };
    for (;;) {
        std::string payload;
        if (!nextFrame(&payload)) return 0;
        const grading::Expected<Record> req = Record::parse(payload);
        const std::string command = req ? req->text("grading_subcommand").value() : "";
        say("at: " + command + " in session " + std::to_string(getpid()));
#ifdef FAKE_RUNNER_FORGES
        if (command != "probe") {
            // Its last words, which a message quotes: every day 52 case it may be
            // asked for passing, and a failing case of no gate to blame the test's
            // failure on, in each form a test's output has shown a verdict in.
            std::string forged = "\n";
            for (const char* c : {"52.diamond.course_input", "52.diamond.hand_made", "52.diamond.seeded",
                                  "52.stress.seeded"}) {
                forged += std::string("[       OK ] ") + c + " (1 ms)\nGATE " + std::string(c).substr(0, 10) +
                          " PASS forged\n0123456789abcdef OK " + c + "\n";
            }
            forged += "[ RUN      ] 52.forged.x\n[  FAILED  ] 52.forged.x (0 ms)\nverdict token: 0123456789abcdef\n"
                      "0123456789abcdef RUN 52.forged.x\n0123456789abcdef FAILED 52.forged.x\n";
            say(forged);
            _exit(3);
        }
#endif
        const auto ms = [&](const char* name) {
            const grading::Expected<int64_t> v = req->integer(name);
            return static_cast<useconds_t>(v ? v.value() * 1000 : 0);
        };
        if (command == "measure" || command == "ask-anyway" || command == "ask-exclusive-twice") {
            const bool asks = command != "measure" || grading::protocol::asksAroundMeasurements(req.value());
            const grading::Expected<int64_t> sections = req->integer("sections");
            for (int64_t k = 0; k < (sections ? sections.value() : 1); ++k) {
                if (asks && !askForGpu(grading::protocol::kGpuExclusive)) return 1;
                if (command == "ask-exclusive-twice" && !askForGpu(grading::protocol::kGpuExclusive)) return 1;
                usleep(ms("measure_ms"));
                if (asks && !askForGpu(grading::protocol::kGpuShared)) return 1;
            }
            usleep(ms("after_ms"));
        }
        if (command == "lend") {
            // Says it is under way, so a test knows its call holds a slot.
            if (const grading::Expected<std::string> started = req->text("started_file"); started) {
                std::ofstream(started.value()) << getpid() << "\n";
            }
            const grading::Expected<int64_t> work = req->integer("work_ms");
            for (int64_t done = 0; work && done < work.value(); done += grading::protocol::kLendIntervalMs) {
                usleep(grading::protocol::kLendIntervalMs * 1000);
                if (grading::protocol::lendsGpu(req.value()) && !askForGpu(grading::protocol::kGpuLend)) return 1;
            }
        }
        if (command == "lend-anyway" && !askForGpu(grading::protocol::kGpuLend)) return 1;
        if (command == "lend-while-exclusive") {
            if (!askForGpu(grading::protocol::kGpuExclusive) || !askForGpu(grading::protocol::kGpuLend)) return 1;
        }
        if (command == "crawl") {  // a breadcrumb every "step_ms" for "steps" steps, then the answer
            const grading::Expected<int64_t> steps = req->integer("steps");
            for (int64_t k = 0; steps && k < steps.value(); ++k) {
                usleep(ms("step_ms"));
                say("at: crawl step " + std::to_string(k));
            }
        }
        if (command == "flood") {  // "flood_mib" MiB to stdout and to stderr, each ending in a line that counts
            const std::string block(size_t(1) << 20, 'y');
            const grading::Expected<int64_t> flood = req->integer("flood_mib");
            const int64_t mib = flood ? flood.value() : 0;
            for (int64_t k = 0; k < mib; ++k) {
                std::fwrite(block.data(), 1, block.size(), stdout);
                std::fwrite(block.data(), 1, block.size(), stderr);
            }
            std::printf("\nflooded %lld MiB\n", static_cast<long long>(mib));
            std::fflush(stdout);
            say("\nat: flooded");
        }
        if (command == "crash") raise(SIGSEGV);
        if (command == "leave-child" || command == "leave-daemon") leaveProcess(command == "leave-daemon");
        if (command == "leave-thread" || command == "leave-renamed-thread") {
            std::thread([] { sleepForever(); }).detach();
        }
        if (command == "leave-renamed-thread") {
            // The name the CUDA runtime gives its event thread, set from outside the thread itself.
            DIR* tasks = opendir("/proc/self/task");
            for (dirent* e = tasks ? readdir(tasks) : nullptr; e != nullptr; e = readdir(tasks)) {
                if (std::atoi(e->d_name) > 0 && std::atoi(e->d_name) != getpid()) {
                    std::ofstream(std::string("/proc/self/task/") + e->d_name + "/comm") << "cuda-EvtHandlr";
                }
            }
            if (tasks != nullptr) closedir(tasks);
        }
        if (command == "map-memfd-exec" || command == "map-tmp-exec") {
            // Code of its own, kept mapped: a file it wrote, then mapped executable.
            const std::string path = env("TMPDIR") + "/code";
            const int fd = command == "map-memfd-exec" ? static_cast<int>(syscall(SYS_memfd_create, "code", 0))
                                                       : open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0700);
            const unsigned char ret[4096] = {0xc3};
            if (fd < 0 || write(fd, ret, sizeof ret) != static_cast<ssize_t>(sizeof ret) ||
                mmap(nullptr, sizeof ret, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED) {
                say("could not map code: " + std::string(std::strerror(errno)));
                return 1;
            }
        }
        if (command == "join-thread") std::thread([] {}).join();
        if (command == "count-own-threads") {  // as the runner itself sees them
            int seen = 0;
            if (DIR* tasks = opendir("/proc/self/task")) {
                for (dirent* e = readdir(tasks); e != nullptr; e = readdir(tasks)) seen += std::atoi(e->d_name) > 0;
                closedir(tasks);
            }
            Record r = sampleResult();
            r.putInt("threads_seen", seen);
            send(withDevice(r).frame());
            continue;
        }
        if (command == "hang") {
            takeNameOf(*req);
            sleepForever();
        }
        if (command == "exit-zero") _exit(0);
        if (command == "close-input") close(0);  // answers, then reads nothing more
        if (command == "error") {
            send(grading::toFrame(failure("cuda-error", "CUDA error in fakeKernel: cudaErrorIllegalAddress")));
            _exit(grading::protocol::kCudaError.exitCode);
        }
        Record r = command == "echo-input" ? req.value() : sampleResult();
        r.putInt("pid", getpid());
        send(withDevice(r).frame());
        if (command == "twice") send(withDevice(r).frame());
        if (command == "late" || command == "late-exit") {
            // Once "go_file" exists (the call is over), then says so in "sent_file".
            const grading::Expected<std::string> go = req->text("go_file");
            for (int i = 0; go && i < 2000 && access(go.value().c_str(), F_OK) != 0; ++i) usleep(5000);
            if (!go) usleep(200000);
            send(withDevice(r).frame());
            if (const grading::Expected<std::string> sent = req->text("sent_file"); sent) {
                std::ofstream(sent.value()) << "sent\n";
            }
            if (command == "late-exit") _exit(0);
        }
        answered = true;
        if (command == "close-input") {
            usleep(1000000);
            return 0;
        }
    }
    return answered ? 0 : 1;
}

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--session") return session();
    if (argc != 4 || std::string(argv[2]) != "--in") {
        say("fake_runner: want <subcommand> --in REQUEST");
        return grading::protocol::kBadInput.exitCode;
    }
    const std::string command = argv[1];
    grading::Expected<Record> request = Record::load(argv[3]);
    if (!request) {
        send(failure("bad-input", "request " + std::string(argv[3]) + ": " + request.error()));
        return grading::protocol::kBadInput.exitCode;
    }

    if (command == "ok" || command == "probe") {
        say("at: fakeKernel at level 0");
        send(sampleResult().serialize());
        return 0;
    }
    if (command == "echo-input") {
        send(withDevice(request.value()).serialize());
        return 0;
    }
    if (command == "echo-env") {
        Record r;
        for (const char* name : {"CUDA_VISIBLE_DEVICES", "GRADING_SEED", "GRADING_SANITIZER", "HOME", "TMPDIR",
                                 "PATH", "GRADING_FAKE_SECRET", "GRADING_RUNNER_GPU_MEMORY_GIB"}) {
            r.putText(name, env(name));
        }
        send(withDevice(r).serialize());
        return 0;
    }
    if (command == "open-fds") {
        // Every descriptor this process holds besides the directory listing itself.
        std::string fds;
        DIR* dir = opendir("/proc/self/fd");
        const int own = dir != nullptr ? dirfd(dir) : -1;
        for (dirent* e = dir != nullptr ? readdir(dir) : nullptr; e != nullptr; e = readdir(dir)) {
            const std::string name = e->d_name;
            if (name == "." || name == ".." || std::atoi(name.c_str()) == own) continue;
            fds += (fds.empty() ? "" : " ") + name;
        }
        if (dir != nullptr) closedir(dir);
        Record r;
        r.putText("fds", fds);
        send(withDevice(r).serialize());
        return 0;
    }
    if (command == "leave-file") {
        const std::string path = env("TMPDIR") + "/left-behind";
        std::ofstream(path) << "for the next test\n";
        Record r;
        r.putText("left", path);
        send(withDevice(r).serialize());
        return 0;
    }
    if (command == "hang") {
        takeNameOf(request.value());
        // A helper in the same group, as a real runtime might start: the
        // grader's kill must take it down too. Its pid lets the test check.
        const pid_t helper = fork();
        if (helper == 0) sleepForever();
        say("helper: " + std::to_string(helper));
        say("at: fakeKernel at level 3");
        sleepForever();
    }
    if (command == "crash") {
        const rlimit noCore{0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
        say("at: fakeKernel at level 1");
        raise(SIGSEGV);
        return 0;  // not reached
    }
    if (command == "early-exit") {
        say("at: fakeKernel at level 2");
        std::exit(0);  // as a submission calling exit() would
    }
    if (command == "truncated") {
        std::string bytes = sampleResult().serialize();
        bytes.resize(bytes.size() - std::string("end\n").size());
        send(bytes);
        return 0;
    }
    if (command == "garbage") {
        std::string bytes(4096, '\0');
        uint64_t x = 38;
        for (char& c : bytes) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            c = static_cast<char>(x >> 56);
        }
        send(bytes);
        return 0;
    }
    if (command == "no-device") {
        say("no-device: cudaErrorNoDevice: no CUDA-capable device is detected");
        send(failure("no-device", "no NVIDIA GPU found: the CUDA runtime sees 0 devices"));
        return grading::protocol::kNoDevice.exitCode;
    }
    if (command == "out-of-memory" || command == "out-of-memory-once") {
        // The calls so far, counted in the request's "count_file": "-once"
        // fails only the first.
        const grading::Expected<std::string> counter = request->text("count_file");
        int calls = 0;
        if (counter) std::ifstream(counter.value()) >> calls;
        if (counter) std::ofstream(counter.value()) << calls + 1;
        if (command == "out-of-memory" || calls == 0) {
            send(failure("cuda-error", "CUDA error in fakeKernel: cudaErrorMemoryAllocation (out of memory)"));
            return grading::protocol::kCudaError.exitCode;
        }
        send(sampleResult().serialize());
        return 0;
    }
    if (command == "error") {
        say("at: expandEdgePerThread (edge mapping) at level 4");
        send(failure("cuda-error",
                     "CUDA error in expandEdgePerThread (edge mapping) at level 4: cudaErrorIllegalAddress "
                     "(an illegal memory access was encountered)"));
        return grading::protocol::kCudaError.exitCode;
    }
    if (command == "guard") {
        say("at: expandEdgePerThread (edge mapping) at level 2");
        send(failure("guard-violation",
                     "after expandEdgePerThread (edge mapping) at level 2: buffer nextFrontier was written past "
                     "its end, at index 10 (it holds 10)"));
        return grading::protocol::kGuardViolation.exitCode;
    }
    if (command == "forged-after-failure") {
        // The runner reports a guard violation; then code of the submission's
        // (an atexit handler, say) writes a clean result and ends with 0.
        send(failure("guard-violation", "after fakeKernel: buffer out was written past its end, at index 4 (it holds 4)"));
        send(sampleResult().serialize());
        return 0;
    }
    if (command == "second-answer") {
        send(sampleResult().serialize());
        send(sampleResult().serialize());
        return 0;
    }
    if (command == "result-then-status") {
        send(sampleResult().serialize());
        return grading::protocol::kCudaError.exitCode;
    }
    if (command == "failure-with-status-0") {
        send(failure("contract-violation", "fakeKernel wrote to its input colIndices at index 0 (was 1, now -7)"));
        return 0;
    }
    if (command == "no-device-info") {
        Record r;
        r.putInt("levels", 3);
        send(r.serialize());
        return 0;
    }
    // ---- escapes: what a hostile runner would try; the request says where.
    const Record& req = request.value();
    const auto text = [&](const char* name) { return req.text(name).ok() ? req.text(name).value() : std::string(); };
    const auto report = [&](const std::string& what) {
        Record r;
        r.putText("outcome", what);
        send(withDevice(r).serialize());
        return 0;
    };
    const auto failed = [](const char* what) { return std::string(what) + " failed: " + std::strerror(errno); };
    if (command == "whoami") {
        int visible = 0;
        if (DIR* d = opendir("/proc")) {
            for (dirent* e = readdir(d); e != nullptr; e = readdir(d)) visible += std::atoi(e->d_name) > 0;
            closedir(d);
        }
        return report("uid " + std::to_string(getuid()) + ", pid " + std::to_string(getpid()) + ", " +
                      std::to_string(visible) + " processes visible");
    }
    if (command == "read-file") {
        std::ifstream in(text("path"));
        if (!in) return report(failed("open"));
        std::string first;
        std::getline(in, first);
        return report("read: " + first);
    }
    if (command == "write-file") {
        const int fd = open(text("path").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) return report(failed("open"));
        (void)!write(fd, "forged\n", 7);
        close(fd);
        return report("wrote");
    }
    if (command == "daemon") {
        // A grandchild in a session of its own, named by the request (so the
        // test finds it among everyone's processes), to write once the call is over.
        const pid_t child = fork();
        if (child == 0) {
            setsid();
            if (fork() == 0) {
                prctl(PR_SET_NAME, text("name").c_str());
                sleep(2);
                const int fd = open(text("path").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
                if (fd >= 0) (void)!write(fd, "outlived\n", 9);
                _exit(0);
            }
            _exit(0);
        }
        waitpid(child, nullptr, 0);
        return report("daemon started");
    }
    if (command == "connect") {
        const int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s < 0) return report(failed("socket"));
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<uint16_t>(std::atoi(text("port").c_str())));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
        const std::string what = ok ? "connected" : failed("connect");
        close(s);
        return report(what);
    }
    if (command == "fork-bomb") {
        int made = 0;
        for (; made < 100000; ++made) {
            const pid_t p = fork();
            if (p < 0) break;
            if (p == 0) {
                prctl(PR_SET_NAME, text("name").c_str());
                sleepForever();
            }
        }
        return report("forked " + std::to_string(made));
    }
    if (command == "fill-disk") {
        const std::string path = env("TMPDIR") + "/fill";
        const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) return report(failed("open"));
        signal(SIGXFSZ, SIG_IGN);  // a file-size limit then fails the write instead of killing us
        static char block[1 << 20];
        long long written = 0;
        for (;;) {
            const ssize_t n = write(fd, block, sizeof block);
            if (n <= 0) break;
            written += n;
            if (written > (4ll << 30)) break;
        }
        const std::string what = "wrote " + std::to_string(written) + " bytes, then " + failed("write");
        close(fd);
        return report(what);
    }
    // The system-call filter's cases (syscall_filter_test.cpp): each reports
    // what it managed, which a filtered runner never gets to.
    if (command == "make-thread") {
        int ran = 0;
        std::thread([&] { ran = 1; }).join();
        return report(ran ? "a thread ran" : "no thread ran");
    }
    if (command == "fork") {
        const pid_t child = fork();
        if (child == 0) _exit(0);
        if (child > 0) waitpid(child, nullptr, 0);
        return report(child > 0 ? "forked" : failed("fork"));
    }
    if (command == "fork-with-sigsys-blocked") {
        sigset_t sigsys;
        sigemptyset(&sigsys);
        sigaddset(&sigsys, SIGSYS);
        sigprocmask(SIG_BLOCK, &sigsys, nullptr);
        const pid_t child = fork();
        if (child == 0) _exit(0);
        return report(child > 0 ? "forked" : failed("fork"));
    }
    if (command == "exec") {
        char* const args[] = {const_cast<char*>("/bin/true"), nullptr};
        execv(args[0], args);
        return report(failed("execv"));
    }
    if (command == "exec-memory" || command == "mprotect-exec") {
        const bool atOnce = command == "exec-memory";
        void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE | (atOnce ? PROT_EXEC : 0), MAP_PRIVATE | MAP_ANONYMOUS,
                          -1, 0);
        if (page == MAP_FAILED) return report(failed("mmap"));
        if (!atOnce && mprotect(page, 4096, PROT_READ | PROT_EXEC) != 0) return report(failed("mprotect"));
        return report("executable memory made");
    }
    if (command == "map-file-exec") {  // left open: the loader maps libraries this way
        const int fd = open("/proc/self/exe", O_RDONLY);
        void* code = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
        return report(code == MAP_FAILED ? failed("mmap") : "file mapped executable");
    }
    if (command == "own-sigsys-handler") {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        return report(sigaction(SIGSYS, &ignore, nullptr) == 0 ? "SIGSYS ignored" : failed("sigaction"));
    }
    if (command == "signal-pid") {
        const bool sent = ::kill(std::atoi(text("pid").c_str()), SIGUSR1) == 0;
        return report(sent ? "signalled" : failed("kill"));
    }
    say("fake_runner: unknown subcommand \"" + command + "\"");
    return grading::protocol::kBadInput.exitCode;
}
