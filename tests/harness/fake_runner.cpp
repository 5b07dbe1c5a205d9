// A stand-in runner with scripted behaviour, one per subcommand, so the
// grading side of the protocol can be tested without a GPU:
//
//   fake_runner <subcommand> --out FILE [--in FILE] args...
//
// ok, hang, crash, early-exit, truncated, garbage, no-device, error, guard,
// echo-input, echo-env. Anything else is a usage error (exit 2).
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "harness/graph_generators.h"
#include "harness/record.h"
#include "harness/runner_client.h"

namespace {

using grading::Record;

void say(const std::string& line) {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
}

int usage(const std::string& why) {
    say("fake_runner: " + why);
    return grading::runner_exit::kBadInput;
}

Record sampleResult(const std::string& args) {
    Record r;
    r.putText("device", "fake device");
    r.putText("args", args);
    r.putInt("levels", 3);
    r.putInts("dist", {0, 1, 2, -1});
    r.putDouble("ms", 1.25);
    return r;
}

bool writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out.flush());
}

[[noreturn]] void sleepForever() {
    for (;;) pause();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4 || std::string(argv[2]) != "--out") return usage("want <subcommand> --out FILE [--in FILE] args...");
    const std::string command = argv[1];
    const std::string out = argv[3];
    std::string in;
    int next = 4;
    if (argc >= 6 && std::string(argv[4]) == "--in") {
        in = argv[5];
        next = 6;
    }
    std::string args;
    for (int i = next; i < argc; ++i) args += (args.empty() ? "" : " ") + std::string(argv[i]);

    if (command == "ok") {
        say("at: fakeKernel at level 0");
        return sampleResult(args).save(out) ? 0 : 2;
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
        std::string bytes = sampleResult(args).serialize();
        bytes.resize(bytes.size() - std::string("end\n").size());
        return writeBytes(out, bytes) ? 0 : 2;
    }
    if (command == "garbage") {
        grading::SplitMix64 rng(38);
        std::string bytes(4096, '\0');
        for (char& c : bytes) c = static_cast<char>(rng.below(256));
        return writeBytes(out, bytes) ? 0 : 2;
    }
    if (command == "no-device") {
        say("no-device: cudaErrorNoDevice: no CUDA-capable device is detected");
        return grading::runner_exit::kNoDevice;
    }
    if (command == "error") {
        say("at: expandEdgePerThread (edge mapping) at level 4");
        say("error: CUDA error in expandEdgePerThread (edge mapping) at level 4: cudaErrorIllegalAddress "
            "(an illegal memory access was encountered)");
        return grading::runner_exit::kCudaError;
    }
    if (command == "guard") {
        say("at: expandEdgePerThread (edge mapping) at level 2");
        say("error: after expandEdgePerThread (edge mapping) at level 2: buffer nextFrontier was written past "
            "its end, at index 10 (it holds 10)");
        return grading::runner_exit::kGuardViolation;
    }
    if (command == "echo-input") {
        if (in.empty()) return usage("echo-input wants --in");
        grading::Expected<Record> input = Record::load(in);
        if (!input) {
            say("error: input " + in + ": " + input.error());
            return grading::runner_exit::kBadInput;
        }
        Record result = std::move(input).value();
        result.putText("args", args);
        return result.save(out) ? 0 : 2;
    }
    if (command == "echo-env") {
        Record result;
        const char* gpus = std::getenv("CUDA_VISIBLE_DEVICES");
        result.putText("CUDA_VISIBLE_DEVICES", gpus == nullptr ? "(unset)" : gpus);
        return result.save(out) ? 0 : 2;
    }
    return usage("unknown subcommand \"" + command + "\"");
}
