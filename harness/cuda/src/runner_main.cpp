#include "harness/runner_main.h"

#include <cuda_runtime.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "harness/cuda_check.h"
#include "harness/guarded_buffer.h"
#include "harness/host_round_trip.h"
#include "harness/runner_client.h"
#include "harness/syscall_filter.h"

namespace grading {
namespace {

std::string lastWhere;  // the latest breadcrumb, named in error reports
bool sessionMode = false;  // answers are framed (record.h) and the process serves many requests
std::string inbox;  // what the grader wrote on stdin and no frame has taken yet

// The call being served, as TimedSection needs it.
struct CallState {
    bool timed = false;  // protocol::isTimedCall
    bool asks = false;   // protocol::asksAroundMeasurements
    bool lends = false;  // protocol::lendsGpu
    std::chrono::steady_clock::time_point lentAt;  // the call's start, or when it last lent the GPU
    int sectionDepth = 0;
    std::optional<double> hostRoundTripUs;
};
CallState current;

void send(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = write(kChannelFd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // the grader sees an incomplete answer, which fails
        done += static_cast<size_t>(n);
    }
}

// Writes the last answer and ends the process: no destructor of a static
// object and no atexit handler (submitted code may have registered either)
// runs after it, so nothing can follow the answer on the channel.
[[noreturn]] void answer(const Record& record, int status) {
    send(sessionMode ? record.frame() : record.serialize());
    std::fflush(stderr);
    _exit(status);
}

[[noreturn]] void fail(const protocol::FailureKind& kind, const std::string& message) {
    const bool named = lastWhere.empty() || message.find(lastWhere) != std::string::npos;
    const std::string text = message + (named ? "" : " (in " + lastWhere + ")");
    std::fprintf(stderr, "error: %s\n", text.c_str());
    answer(protocol::encode(protocol::Failure{kind.name, text}), kind.exitCode);
}

std::string usage(const char* program, const std::vector<Subcommand>& subcommands) {
    std::string u = std::string("usage: ") + program + " <subcommand> --in REQUEST  (answers on fd 3)\nsubcommands:";
    for (const Subcommand& s : subcommands) u += " " + s.name;
    return u;
}

}  // namespace

void refuseCall(const std::string& call, const std::string& why) {
    fail(protocol::kContractViolation, "the submission called " + call + ": " + why);
}

void breadcrumb(const std::string& where) {
    lastWhere = where;
    std::fprintf(stderr, "at: %s\n", where.c_str());
    std::fflush(stderr);
}

namespace {

// No usable device: the answer says what is really missing (no driver at
// all reads as a version mismatch through the runtime, which would mislead).
void requireDevice() {
    int devices = 0;
    const cudaError_t probe = cudaGetDeviceCount(&devices);
    if (probe == cudaSuccess && devices > 0) return;
    std::string reason;
    if (probe == cudaErrorInsufficientDriver && access("/dev/nvidiactl", F_OK) != 0) {
        reason = "no NVIDIA GPU or driver found (no /dev/nvidiactl)";
    } else if (probe == cudaErrorNoDevice || devices == 0) {
        reason = "no NVIDIA GPU found: the CUDA runtime sees 0 devices";
    } else {
        reason = std::string(cudaGetErrorName(probe)) + ": " + cudaGetErrorString(probe);
    }
    std::fprintf(stderr, "no-device: %s\n", reason.c_str());
    answer(protocol::encode(protocol::Failure{protocol::kNoDevice.name, reason}), protocol::kNoDevice.exitCode);
}

// How the runner's threads wait for the GPU: spinning, CUDA's own choice
// with one context per process on a machine with more cores than that
// (cudaDeviceScheduleAuto), and the quickest to notice a finished kernel.
// One style for the whole process, set before its context exists: every
// call, timed or checked, shows the submission the same context flags
// (cudaGetDeviceFlags), so none can tell a timed call by them. Where the
// driver refuses, the process keeps the default.
void setWaitStyle() {
    if (cudaSetDeviceFlags(cudaDeviceScheduleSpin) != cudaSuccess) (void)cudaGetLastError();
}

// About 1 ms on the H200: a round trip is 10-13 us.
constexpr int kRoundTripSamples = 64;

// The grader's next frame on stdin. Its closing stdin ends the session
// (a leak check wants the context destroyed first).
std::string nextFrame() {
    std::string payload;
    FrameStatus status;
    while ((status = takeFrame(inbox, &payload)) == FrameStatus::Incomplete) {
        const long n = readOnto(STDIN_FILENO, inbox);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            cudaDeviceReset();
            std::fflush(stderr);
            _exit(inbox.empty() ? protocol::kResultExitCode : protocol::kBadInput.exitCode);
        }
    }
    if (status == FrameStatus::Malformed) fail(protocol::kBadInput, "a malformed frame from the grader");
    return payload;
}

// Asks the grader for the GPU exclusively or shared, and waits until it has it.
// Our own work ends first: none of it may run beside someone's measurement.
void askForGpu(const char* use) {
    (void)cudaDeviceSynchronize();  // an error stays for the call's own checks
    send(protocol::gpuUseFrame(use));
    const Expected<Record> reply = Record::parse(nextFrame());
    if (!reply || protocol::gpuUseAsked(reply.value()) != protocol::kGpuGo) {
        fail(protocol::kBadInput, std::string("the grader answered a request for the GPU ") + use +
                                      " with something other than go");
    }
}

// One request served; a failure ends the process with its report.
Record serveOne(const Subcommand& chosen, const Record& request) {
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
        current = CallState{};
        current.timed = protocol::isTimedCall(request);
        current.asks = sessionMode && protocol::asksAroundMeasurements(request);
        current.lends = sessionMode && protocol::lendsGpu(request);
        current.lentAt = std::chrono::steady_clock::now();
        // Threads the call leaves running: the grader reads them from outside
        // (runner_session.cpp), after the answer.
        Record result = chosen.handle(request);
        info.hostRoundTripUs = current.hostRoundTripUs;
        protocol::encodeInto(info, result);
        return result;
    } catch (const InputError& e) {
        fail(protocol::kBadInput, e.what());
    } catch (const CudaError& e) {
        fail(protocol::kCudaError, e.what());
    } catch (const GuardViolation& e) {
        fail(protocol::kGuardViolation, e.what());
    } catch (const ContractViolation& e) {
        fail(protocol::kContractViolation, e.what());
    } catch (const std::exception& e) {
        fail(protocol::kCudaError, e.what());
    }
}

const Subcommand* find(const std::vector<Subcommand>& subcommands, const std::string& name) {
    for (const Subcommand& s : subcommands) {
        if (s.name == name) return &s;
    }
    return nullptr;
}

// The files a request left in TMPDIR go before the next request.
void emptyTmpdir() {
    const char* tmp = std::getenv("TMPDIR");
    if (tmp == nullptr || *tmp == '\0') return;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(tmp, ec)) std::filesystem::remove_all(entry.path(), ec);
}

// Many requests, one CUDA context: frames in on stdin, frames out on fd 3,
// until stdin closes. The subcommand travels in the request
// ("grading_subcommand"). Any failure ends the session with its report.
[[noreturn]] void session(const std::vector<Subcommand>& subcommands) {
    sessionMode = true;
    bool deviceChecked = false;
    for (;;) {
        Expected<Record> request = Record::parse(nextFrame());
        if (!request) fail(protocol::kBadInput, "request: " + request.error());
        const Expected<std::string> name = request->text("grading_subcommand");
        const Subcommand* chosen = name ? find(subcommands, name.value()) : nullptr;
        if (chosen == nullptr) fail(protocol::kBadInput, "the request names no subcommand this runner has");
        if (!deviceChecked) {
            requireDevice();
            setWaitStyle();
        }
        deviceChecked = true;
        lastWhere.clear();
        emptyTmpdir();
        const Record result = serveOne(*chosen, request.value());
        send(result.frame());
    }
}

}  // namespace

TimedSection::TimedSection() {
    if (current.sectionDepth++ > 0) return;
    if (current.asks) askForGpu(protocol::kGpuExclusive);
    if (current.timed && !current.hostRoundTripUs) current.hostRoundTripUs = hostRoundTripMicros(kRoundTripSamples);
}

TimedSection::~TimedSection() {
    if (--current.sectionDepth == 0 && current.asks) askForGpu(protocol::kGpuShared);
}

void lendGpuToMeasurements() {
    if (!current.lends || (current.asks && current.sectionDepth > 0)) return;  // measuring exclusively
    if (std::chrono::steady_clock::now() - current.lentAt < std::chrono::milliseconds(protocol::kLendIntervalMs)) return;
    askForGpu(protocol::kGpuLend);
    current.lentAt = std::chrono::steady_clock::now();
}

int runnerMain(int argc, char** argv, std::vector<Subcommand> subcommands) {
    subcommands.push_back(serve<protocol::Probe>([](const protocol::Empty&) { return protocol::Empty{}; }));
    if (argc == 2 && std::string(argv[1]) == "--session") session(subcommands);
    const Subcommand* chosen = argc >= 2 ? find(subcommands, argv[1]) : nullptr;
    if (chosen == nullptr || argc != 4 || std::string(argv[2]) != "--in") {
        fail(protocol::kBadInput, usage(argv[0], subcommands));
    }
    Expected<Record> request = Record::load(argv[3]);
    if (!request) fail(protocol::kBadInput, std::string("request ") + argv[3] + ": " + request.error());
    requireDevice();
    setWaitStyle();
    const Record result = serveOne(*chosen, request.value());
    // Destroys the context, so a leak check sees what was never freed.
    cudaDeviceReset();
    answer(result, protocol::kResultExitCode);
}

}  // namespace grading

// Before any constructor, the submission's included: the grader's filter.
GRADING_INSTALL_SYSCALL_FILTER();
