#include "harness/runner_main.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "harness/cuda_check.h"
#include "harness/guarded_buffer.h"
#include "harness/runner_client.h"

namespace grading {
namespace {

std::string lastWhere;  // the latest breadcrumb, named in error reports

// Writes the one answer and ends the process: no destructor of a static
// object and no atexit handler (submitted code may have registered either)
// runs after it, so nothing can follow the answer on the channel.
[[noreturn]] void answer(const Record& record, int status) {
    const std::string bytes = record.serialize();
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = write(kChannelFd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // the grader sees an incomplete answer, which fails
        done += static_cast<size_t>(n);
    }
    std::fflush(stderr);
    _exit(status);
}

[[noreturn]] void fail(int status, const std::string& kind, const std::string& message) {
    const bool named = lastWhere.empty() || message.find(lastWhere) != std::string::npos;
    const std::string text = message + (named ? "" : " (in " + lastWhere + ")");
    std::fprintf(stderr, "error: %s\n", text.c_str());
    answer(protocol::encode(protocol::Failure{kind, text}), status);
}

std::string usage(const char* program, const std::vector<Subcommand>& subcommands) {
    std::string u = std::string("usage: ") + program + " <subcommand> --in REQUEST  (answers on fd 3)\nsubcommands:";
    for (const Subcommand& s : subcommands) u += " " + s.name;
    return u;
}

}  // namespace

void breadcrumb(const std::string& where) {
    lastWhere = where;
    std::fprintf(stderr, "at: %s\n", where.c_str());
    std::fflush(stderr);
}

int runnerMain(int argc, char** argv, std::vector<Subcommand> subcommands) {
    subcommands.push_back(serve<protocol::Probe>([](const protocol::Empty&) { return protocol::Empty{}; }));
    const Subcommand* chosen = nullptr;
    for (const Subcommand& s : subcommands) {
        if (argc >= 2 && s.name == argv[1]) chosen = &s;
    }
    if (chosen == nullptr || argc != 4 || std::string(argv[2]) != "--in") {
        fail(runner_exit::kBadInput, "bad-input", usage(argv[0], subcommands));
    }
    Expected<Record> request = Record::load(argv[3]);
    if (!request) fail(runner_exit::kBadInput, "bad-input", std::string("request ") + argv[3] + ": " + request.error());

    int devices = 0;
    const cudaError_t probe = cudaGetDeviceCount(&devices);
    if (probe != cudaSuccess || devices == 0) {
        // Say what is really missing: no driver at all reads as a version
        // mismatch through the runtime, which would mislead.
        std::string reason;
        if (probe == cudaErrorInsufficientDriver && access("/dev/nvidiactl", F_OK) != 0) {
            reason = "no NVIDIA GPU or driver found (no /dev/nvidiactl)";
        } else if (probe == cudaErrorNoDevice || devices == 0) {
            reason = "no NVIDIA GPU found: the CUDA runtime sees 0 devices";
        } else {
            reason = std::string(cudaGetErrorName(probe)) + ": " + cudaGetErrorString(probe);
        }
        std::fprintf(stderr, "no-device: %s\n", reason.c_str());
        answer(protocol::encode(protocol::Failure{"no-device", reason}), runner_exit::kNoDevice);
    }

    Record result;
    try {
        protocol::DeviceInfo info;
        cudaDeviceProp prop{};
        CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
        info.device = prop.name;
        info.smCount = prop.multiProcessorCount;
        info.computeCapability = prop.major * 10 + prop.minor;
        char busId[32] = {};
        CUDA_TRY(cudaDeviceGetPCIBusId(busId, sizeof(busId), 0));
        info.pciBusId = busId;
        result = chosen->handle(request.value());
        protocol::encodeInto(info, result);
    } catch (const InputError& e) {
        fail(runner_exit::kBadInput, "bad-input", e.what());
    } catch (const CudaError& e) {
        fail(runner_exit::kCudaError, "cuda-error", e.what());
    } catch (const GuardViolation& e) {
        fail(runner_exit::kGuardViolation, "guard-violation", e.what());
    } catch (const ContractViolation& e) {
        fail(runner_exit::kContractViolation, "contract-violation", e.what());
    } catch (const std::exception& e) {
        fail(runner_exit::kCudaError, "cuda-error", e.what());
    }
    // Destroys the context, so a leak check sees what was never freed.
    cudaDeviceReset();
    answer(result, runner_exit::kOk);
}

}  // namespace grading
