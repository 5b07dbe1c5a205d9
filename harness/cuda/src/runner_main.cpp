#include "harness/runner_main.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "harness/cuda_check.h"
#include "harness/guarded_buffer.h"
#include "harness/runner_client.h"

namespace grading {
namespace {

std::string usage(const char* program, const std::map<std::string, Subcommand>& subcommands) {
    std::string u = std::string("usage: ") + program + " <subcommand> --out RESULT [--in INPUT] [--name value ...]\nsubcommands:";
    for (const auto& entry : subcommands) u += " " + entry.first;
    return u;
}

std::string lastWhere;  // the latest breadcrumb, named in error reports

int fail(int code, const std::string& message) {
    const bool named = lastWhere.empty() || message.find(lastWhere) != std::string::npos;
    std::fprintf(stderr, "error: %s%s\n", message.c_str(), named ? "" : (" (in " + lastWhere + ")").c_str());
    return code;
}

// Built in to every runner: what the grader asks first, to skip cleanly.
void probeCommand(const RunnerArgs&, Record&) {}

}  // namespace

const std::string& RunnerArgs::text(const std::string& name) const {
    const auto it = options_.find(name);
    if (it == options_.end()) throw InputError("missing --" + name);
    return it->second;
}

int RunnerArgs::integer(const std::string& name) const {
    const std::string& v = text(name);
    try {
        size_t used = 0;
        const int value = std::stoi(v, &used);
        if (used == v.size()) return value;
    } catch (const std::exception&) {
    }
    throw InputError("--" + name + " wants an integer, got \"" + v + "\"");
}

int RunnerArgs::integer(const std::string& name, int fallback) const {
    return has(name) ? integer(name) : fallback;
}

double RunnerArgs::real(const std::string& name, double fallback) const {
    if (!has(name)) return fallback;
    try {
        return std::stod(text(name));
    } catch (const std::exception&) {
        throw InputError("--" + name + " wants a number, got \"" + text(name) + "\"");
    }
}

void breadcrumb(const std::string& where) {
    lastWhere = where;
    std::fprintf(stderr, "at: %s\n", where.c_str());
    std::fflush(stderr);
}

int runnerMain(int argc, char** argv, std::map<std::string, Subcommand> subcommands) {
    subcommands.emplace("probe", probeCommand);
    if (argc < 2 || subcommands.count(argv[1]) == 0) {
        return fail(runner_exit::kBadInput, usage(argv[0], subcommands));
    }
    std::map<std::string, std::string> options;
    for (int i = 2; i < argc; i += 2) {
        const std::string key = argv[i];
        if (key.size() < 3 || key.compare(0, 2, "--") != 0 || i + 1 >= argc) {
            return fail(runner_exit::kBadInput, "expected --name value pairs, got \"" + key + "\"\n" +
                                                    usage(argv[0], subcommands));
        }
        options[key.substr(2)] = argv[i + 1];
    }
    if (options.count("out") == 0) return fail(runner_exit::kBadInput, "missing --out");
    Record input;
    if (options.count("in") != 0) {
        Expected<Record> loaded = Record::load(options["in"]);
        if (!loaded) return fail(runner_exit::kBadInput, "input " + options["in"] + ": " + loaded.error());
        input = std::move(loaded).value();
    }

    int devices = 0;
    const cudaError_t probe = cudaGetDeviceCount(&devices);
    if (probe != cudaSuccess || devices == 0) {
        std::fprintf(stderr, "no-device: %s\n",
                     probe != cudaSuccess ? (std::string(cudaGetErrorName(probe)) + ": " + cudaGetErrorString(probe)).c_str()
                                          : "the CUDA runtime sees 0 devices");
        return runner_exit::kNoDevice;
    }

    Record result;
    try {
        cudaDeviceProp prop{};
        CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
        result.putText("device", prop.name);
        result.putInt("sm_count", prop.multiProcessorCount);
        result.putInt("compute_capability", prop.major * 10 + prop.minor);
        char busId[32] = {};
        CUDA_TRY(cudaDeviceGetPCIBusId(busId, sizeof(busId), 0));
        result.putText("pci_bus_id", busId);
        subcommands.at(argv[1])(RunnerArgs(options, std::move(input)), result);
    } catch (const InputError& e) {
        return fail(runner_exit::kBadInput, e.what());
    } catch (const CudaError& e) {
        return fail(runner_exit::kCudaError, e.what());
    } catch (const GuardViolation& e) {
        return fail(runner_exit::kGuardViolation, e.what());
    } catch (const ContractViolation& e) {
        return fail(runner_exit::kContractViolation, e.what());
    } catch (const std::exception& e) {
        return fail(runner_exit::kCudaError, e.what());
    }
    if (!result.save(options["out"])) {
        return fail(runner_exit::kBadInput, "cannot write the result to " + options["out"]);
    }
    // Destroys the context, so a leak check sees what was never freed.
    cudaDeviceReset();
    return runner_exit::kOk;
}

}  // namespace grading
