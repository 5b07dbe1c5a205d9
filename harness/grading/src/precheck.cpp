#include "grading/precheck.h"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "text_lines.h"

namespace grading::report {
namespace {

struct Pattern {
    const char* rule;
    std::regex regex;
};

// The patterns behind each rule, over code with comments and string
// literals blanked (a string's text is kept for the path rule alone).
const std::vector<Pattern>& patterns() {
    static const std::vector<Pattern> table = {
        {"file-or-network-io",
         std::regex(R"(\b(fopen|freopen|fdopen|creat|open|openat|socket|connect|bind|listen|accept|sendto|recvfrom|mmap|popen|opendir|unlink|rename|remove)\s*\()"
                    R"(|\bstd::(i|o)?fstream\b|\b(i|o)fstream\b|\bFILE\s*\*|\bwrite\s*\(\s*[0-9])")},
        {"process-control",
         std::regex(R"(\b(exit|_Exit|_exit|quick_exit|abort|fork|vfork|system|execl|execlp|execle|execv|execvp|execve|kill|raise|signal|sigaction|setsid|ptrace|prctl|dup2)\s*\()")},
        {"environment-or-proc", std::regex(R"(\b(getenv|secure_getenv|setenv|putenv|unsetenv|environ)\b)")},
        {"threads", std::regex(R"(\bstd::(thread|jthread|async)\b|\bpthread_create\b)")},
        {"exit-handlers", std::regex(R"(\b(atexit|at_quick_exit|on_exit)\s*\()")},
        {"static-lifetime-code",
         std::regex(R"(__attribute__\s*\(\s*\(\s*(constructor|destructor)|~\s*[A-Za-z_]\w*\s*\(\s*\)|\bstatic\s+std::)")},
    };
    return table;
}

// Standard library and CUDA Toolkit headers a kernel exercise may include.
bool allowedAngle(const std::string& header) {
    static const std::set<std::string> standard = {
        "algorithm", "array", "atomic", "bitset", "cassert", "cfloat", "chrono", "climits", "cmath", "complex",
        "cstddef", "cstdint", "cstdio", "cstdlib", "cstring", "functional", "initializer_list", "iterator",
        "limits", "memory", "numeric", "optional", "stdexcept", "string", "string_view", "tuple", "type_traits",
        "utility", "vector", "assert.h", "float.h", "limits.h", "math.h", "stddef.h", "stdint.h", "stdio.h",
        "stdlib.h", "string.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda_fp16.h", "cuda_bf16.h",
        "device_launch_parameters.h", "cooperative_groups.h", "math_constants.h", "nvtx3/nvToolsExt.h"};
    if (standard.count(header)) return true;
    for (const char* prefix : {"cub/", "thrust/", "cuda/", "cooperative_groups/", "nvtx3/"}) {
        if (header.rfind(prefix, 0) == 0) return true;
    }
    return false;
}

// Blanks comments and the text of string and character literals, keeping
// every newline, so that line numbers survive and code in a comment never
// matches. Strings are kept aside for the path rule.
std::string blankCommentsAndStrings(const std::string& src, std::vector<std::pair<int, std::string>>* strings) {
    std::string out = src;
    int line = 1;
    for (size_t i = 0; i < src.size(); ++i) {
        const char c = src[i];
        if (c == '\n') {
            ++line;
            continue;
        }
        if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
            while (i < src.size() && src[i] != '\n') out[i++] = ' ';
            --i;
        } else if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
            out[i] = out[i + 1] = ' ';
            for (i += 2; i < src.size() && !(src[i] == '*' && i + 1 < src.size() && src[i + 1] == '/'); ++i) {
                if (src[i] == '\n') ++line;
                else out[i] = ' ';
            }
            if (i + 1 < src.size()) out[i] = out[i + 1] = ' ';
            ++i;
        } else if (c == '"' || c == '\'') {
            // #include "x.h" keeps its name: the include rule reads it.
            static const std::regex includePrefix(R"(^\s*#\s*include\s*$)");
            const size_t newline = i == 0 ? std::string::npos : src.rfind('\n', i - 1);
            const size_t lineStart = newline == std::string::npos ? 0 : newline + 1;
            const bool include = std::regex_search(src.substr(lineStart, i - lineStart), includePrefix);
            std::string text;
            size_t j = i + 1;
            for (; j < src.size() && src[j] != c && src[j] != '\n'; ++j) {
                if (src[j] == '\\' && j + 1 < src.size()) text += src[j++];
                text += src[j];
            }
            if (c == '"' && strings != nullptr) strings->emplace_back(line, text);
            if (!include) {
                for (size_t k = i + 1; k < j && k < src.size(); ++k) out[k] = ' ';
            }
            i = j;
        }
    }
    return out;
}

std::string shorten(const std::string& s) {
    const std::string t = text::trim(s);
    return t.size() > 120 ? t.substr(0, 117) + "..." : t;
}

}  // namespace

const std::vector<PrecheckRule>& precheckRules() {
    static const std::vector<PrecheckRule> rules = {
        {"file-or-network-io", "opens files, sockets or descriptors: a kernel exercise needs none"},
        {"process-control", "ends, forks or signals the process, or runs a program"},
        {"environment-or-proc", "reads the environment or the machine's /proc, /sys or /dev"},
        {"threads", "starts host threads, which could act beside the runner"},
        {"exit-handlers", "registers code to run at exit, after the runner's checks"},
        {"static-lifetime-code", "runs code of its own before main or after it (constructors, destructors, static objects)"},
        {"inline-asm-outside-kernels", "inline assembly in host code"},
        {"include-outside-course", "includes a header the course does not provide"},
    };
    return rules;
}

std::vector<Finding> precheck(const std::string& file, const std::string& source,
                              const std::vector<std::string>& allowedIncludes) {
    std::vector<std::pair<int, std::string>> strings;
    const std::vector<std::string> original = text::splitLines(source);
    const std::vector<std::string> code = text::splitLines(blankCommentsAndStrings(source, &strings));
    std::vector<Finding> findings;
    const auto add = [&](int line, const std::string& rule) {
        findings.push_back({file, line, rule, shorten(original[static_cast<size_t>(line - 1)])});
    };

    static const std::regex includeLine(R"(^\s*#\s*include\s*([<"])([^>"]*)[>"])");
    static const std::regex computedInclude(R"(^\s*#\s*include\s*[A-Za-z_])");
    static const std::regex deviceFunction(R"(__global__|__device__)");
    static const std::regex asmUse(R"(\basm\b|__asm__)");
    int depth = 0;
    int deviceDepth = -1;  // brace depth at which the current device function's body began
    bool pendingDevice = false;
    for (size_t i = 0; i < code.size(); ++i) {
        const int line = static_cast<int>(i) + 1;
        const std::string& l = code[i];
        std::smatch m;
        if (std::regex_search(l, m, includeLine)) {
            const std::string name = m[2];
            const bool quoted = m[1] == "\"";
            const bool allowed = quoted ? std::find(allowedIncludes.begin(), allowedIncludes.end(), name) !=
                                              allowedIncludes.end()
                                        : allowedAngle(name);
            if (!allowed) add(line, "include-outside-course");
            continue;
        }
        if (std::regex_search(l, computedInclude)) {
            add(line, "include-outside-course");
            continue;
        }
        for (const Pattern& p : patterns()) {
            if (std::regex_search(l, p.regex)) add(line, p.rule);
        }
        if (std::regex_search(l, deviceFunction)) pendingDevice = true;
        if (std::regex_search(l, asmUse) && deviceDepth < 0 && !pendingDevice) add(line, "inline-asm-outside-kernels");
        for (char c : l) {
            if (c == '{') {
                if (pendingDevice && deviceDepth < 0) deviceDepth = depth;
                pendingDevice = false;
                ++depth;
            } else if (c == '}') {
                --depth;
                if (depth == deviceDepth) deviceDepth = -1;
            } else if (c == ';' && deviceDepth < 0) {
                pendingDevice = false;  // a declaration, not a definition
            }
        }
    }
    // Paths to the machine's own state, whatever reads them.
    static const std::regex machinePath(R"(^/(proc|sys|dev)(/|$))");
    for (const auto& [line, text] : strings) {
        if (std::regex_search(text, machinePath)) add(line, "environment-or-proc");
    }
    std::stable_sort(findings.begin(), findings.end(),
                     [](const Finding& a, const Finding& b) { return a.line < b.line; });
    return findings;
}

std::string formatFindings(const std::vector<Finding>& findings) {
    std::string out;
    for (const Finding& f : findings) {
        out += f.file + ":" + std::to_string(f.line) + ": [" + f.rule + "] " + f.text + "\n";
    }
    return out;
}

std::string findingsTsv(const std::vector<Finding>& findings) {
    std::string out;
    for (const Finding& f : findings) {
        std::string text = f.text;
        std::replace(text.begin(), text.end(), '\t', ' ');
        out += f.file + "\t" + std::to_string(f.line) + "\t" + f.rule + "\t" + text + "\n";
    }
    return out;
}

std::vector<Finding> parseFindingsTsv(const std::string& tsv) {
    std::vector<Finding> out;
    for (const std::string& line : text::splitLines(tsv)) {
        const std::vector<std::string> f = text::splitTabs(line);
        if (f.size() < 4) continue;
        out.push_back({f[0], std::atoi(f[1].c_str()), f[2], f[3]});
    }
    return out;
}

}  // namespace grading::report
