#include "seal/seal.h"

#include <cxxabi.h>
#include <elf.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <regex>

namespace grading::seal {
namespace {

std::string demangled(const std::string& symbol) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                                std::free);
    return status == 0 && text ? std::string(text.get()) : symbol;
}

std::string joined(const std::set<std::string>& names, const char* separator) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : separator) + n;
    return out;
}

// A name of ours, or a compiler's bookkeeping with no name to link by.
bool linksByName(const Symbol& s) {
    return !s.name.empty() && s.type != STT_SECTION && s.type != STT_FILE;
}

bool isExport(const Symbol& s, const Rules& rules) {
    return s.defined && s.type == STT_FUNC && (s.binding == STB_GLOBAL || s.binding == STB_WEAK) &&
           rules.exports.count(qualifiedName(s.name)) != 0;
}

// nvcc's launch stub behind each kernel: external, but only the kernel's own
// host function calls it.
bool isLaunchStub(const Symbol& s) { return demangled(s.name).rfind("__device_stub__", 0) == 0; }

std::string extraDefinitions(const std::vector<ElfFile>& objects, const Rules& rules) {
    std::vector<std::string> extra;
    for (const ElfFile& object : objects) {
        for (const Symbol& s : object.symbols) {
            if (!s.defined || s.binding != STB_GLOBAL || !linksByName(s)) continue;
            if (isExport(s, rules) || isLaunchStub(s)) continue;
            const std::string name = demangled(s.name);
            // nvcc gives a kernel's host function external linkage even in an
            // anonymous namespace; the seal makes it the file's own anyway.
            if (name.find("(anonymous namespace)") != std::string::npos) continue;
            extra.push_back(name);
        }
    }
    if (extra.empty()) return "";
    const std::string more = extra.size() > 1 ? " (and " + std::to_string(extra.size() - 1) + " more)" : "";
    std::string allowed;
    for (const std::string& name : rules.exports) allowed += (allowed.empty() ? "" : ", ") + name;
    return "it defines " + extra.front() + more +
           ", which the exercise does not declare: a submission may define only " + allowed +
           " and helpers in an anonymous namespace or static";
}

// Each exercise kernel the file defines must be a kernel in every image of
// its device code it could read: a host function under a kernel's name
// would take the course's <<<>>> launch and run on the CPU.
Expected<bool> kernelsAreDeviceCode(const std::vector<ElfFile>& objects, const Rules& rules) {
    std::set<std::string> hostSymbols;  // mangled, of the exported kernels
    std::vector<std::set<std::string>> images;
    int unreadable = 0;
    for (const ElfFile& object : objects) {
        for (const Symbol& s : object.symbols) {
            if (isExport(s, rules) && rules.kernels.count(qualifiedName(s.name))) hostSymbols.insert(s.name);
        }
        for (const Section& section : object.sections) {
            if (section.name != ".nv_fatbin") continue;
            Expected<DeviceCode> code = readFatbin(section.bytes);
            if (!code) return Error{"its device code cannot be read: " + code.error()};
            images.insert(images.end(), code->kernelsPerImage.begin(), code->kernelsPerImage.end());
            unreadable += code->unreadableImages;
        }
    }
    if (hostSymbols.empty()) return true;
    if (images.empty() && unreadable > 0) {
        return Error{"its device code cannot be read (" + std::to_string(unreadable) +
                     " compressed images): build the unit with nvcc --no-compress"};
    }
    for (const std::string& symbol : hostSymbols) {
        bool everywhere = !images.empty();
        for (const std::set<std::string>& kernels : images) everywhere = everywhere && kernels.count(symbol) != 0;
        if (everywhere) continue;
        const std::string name = qualifiedName(symbol);
        return Error{"it defines " + name + " as a host function, not a kernel: the exercise's kernels (" +
                     joined(rules.kernels, ", ") + ") must be __global__ device code, which the course launches"};
    }
    return true;
}

std::string forbiddenCalls(const std::vector<ElfFile>& objects, const Rules& rules) {
    std::set<std::string> called;
    for (const ElfFile& object : objects) {
        for (const Symbol& s : object.symbols) {
            if (!s.defined && rules.forbidden.count(s.name)) called.insert(s.name);
        }
    }
    if (called.empty()) return "";
    return "it calls " + joined(called, ", ") + ", which " + rules.day +
           "'s exercise may not call at all: the day's contract (its course header) allows the CUDA runtime "
           "API, CUB, Thrust, libcu++ and cooperative groups, and no host callbacks, driver API or driver "
           "entry points";
}

// The only code a linked object can run before the runner's first
// instruction of its own, the system-call filter's install
// (harness/core/include/harness/syscall_filter.h): a .preinit_array entry,
// and an IFUNC resolver, which the loader calls while it relocates.
std::string codeBeforeTheRunner(const std::vector<ElfFile>& objects) {
    for (const ElfFile& object : objects) {
        for (const Section& section : object.sections) {
            if (section.name.rfind(".preinit_array", 0) == 0) {
                return "it puts a function in .preinit_array, which would run before the runner installs its "
                       "system-call filter: a submission's code runs when the course calls it (or from a "
                       "constructor)";
            }
        }
        for (const Symbol& s : object.symbols) {
            if (s.defined && s.type == STT_GNU_IFUNC) {
                return "it defines " + demangled(s.name) + " as an IFUNC, whose resolver would run while the "
                       "loader relocates the runner, before its system-call filter is installed";
            }
        }
    }
    return "";
}

}  // namespace

std::string qualifiedName(const std::string& symbol) {
    std::string name = demangled(symbol);
    name = name.substr(0, name.find('('));
    // A template function's return type comes first: "void zdemo::f<int>".
    static const std::regex kLeadingWords(R"(^([^ <]+ )+)");
    return std::regex_replace(name, kLeadingWords, "");
}

Expected<Plan> plan(const std::vector<ElfFile>& objects, const Rules& rules) {
    if (const std::string extra = extraDefinitions(objects, rules); !extra.empty()) return Error{extra};
    if (Expected<bool> kernels = kernelsAreDeviceCode(objects, rules); !kernels) return Error{kernels.error()};
    if (const std::string calls = forbiddenCalls(objects, rules); !calls.empty()) return Error{calls};
    if (const std::string early = codeBeforeTheRunner(objects); !early.empty()) return Error{early};

    // Every name the file defines, but the exports, becomes its own: local
    // names too, since a COMDAT group is merged by its signature, which is
    // often a local symbol (a constructor's C5 group).
    std::map<std::string, std::string> renames;
    for (const ElfFile& object : objects) {
        for (const Symbol& s : object.symbols) {
            if (!linksByName(s)) continue;
            if (s.defined && !isExport(s, rules)) {
                renames.emplace(s.name, rules.privatePrefix + s.name);
            } else if (!s.defined && rules.checked.count(s.name)) {
                renames.emplace(s.name, kCheckedCallPrefix + s.name);
            }
        }
    }
    return Plan{{renames.begin(), renames.end()}};
}

}  // namespace grading::seal
