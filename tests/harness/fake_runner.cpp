// A stand-in runner with scripted behaviour, one per subcommand, so the
// grading side of the protocol can be tested without a GPU:
//
//   fake_runner <subcommand> --in REQUEST      (answers on fd 3)
//
// Well-behaved: ok, echo-input, echo-env, open-fds, leave-file. Broken or
// hostile: hang, crash, early-exit, truncated, garbage, no-device, error,
// guard, forged-after-failure, second-answer, result-then-status,
// failure-with-status-0, no-device-info. Anything else is a usage error
// (exit 2, no answer).
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "harness/protocol.h"
#include "harness/record.h"
#include "harness/runner_client.h"

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

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4 || std::string(argv[2]) != "--in") {
        say("fake_runner: want <subcommand> --in REQUEST");
        return grading::runner_exit::kBadInput;
    }
    const std::string command = argv[1];
    grading::Expected<Record> request = Record::load(argv[3]);
    if (!request) {
        send(failure("bad-input", "request " + std::string(argv[3]) + ": " + request.error()));
        return grading::runner_exit::kBadInput;
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
                                 "PATH", "GRADING_FAKE_SECRET"}) {
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
        return grading::runner_exit::kNoDevice;
    }
    if (command == "error") {
        say("at: expandEdgePerThread (edge mapping) at level 4");
        send(failure("cuda-error",
                     "CUDA error in expandEdgePerThread (edge mapping) at level 4: cudaErrorIllegalAddress "
                     "(an illegal memory access was encountered)"));
        return grading::runner_exit::kCudaError;
    }
    if (command == "guard") {
        say("at: expandEdgePerThread (edge mapping) at level 2");
        send(failure("guard-violation",
                     "after expandEdgePerThread (edge mapping) at level 2: buffer nextFrontier was written past "
                     "its end, at index 10 (it holds 10)"));
        return grading::runner_exit::kGuardViolation;
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
        return grading::runner_exit::kCudaError;
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
    say("fake_runner: unknown subcommand \"" + command + "\"");
    return grading::runner_exit::kBadInput;
}
