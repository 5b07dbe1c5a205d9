#pragma once
// The command-line plumbing grade_report and grade_html share: a usage error
// (as opposed to a bad input file), whole-file reads and writes, and
// "--name value" / "--name=value" options.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "grading/junit.h"  // report::InputError

namespace grading::cli {

struct UsageError : report::InputError {
    using report::InputError::InputError;
};

inline std::string readFile(const std::string& path, const std::string& what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw report::InputError(path + ": cannot open the " + what);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Written beside and renamed into place, so a reader never sees half a file.
inline void writeFile(const std::string& path, const std::string& text) {
    const std::string part = path + ".part";
    {
        std::ofstream out(part, std::ios::binary);
        out << text;
        if (!out) throw report::InputError(part + ": cannot write");
    }
    std::filesystem::rename(part, path);
}

// "--name value" or "--name=value" at argv[i]; advances i past what it took.
inline bool option(int argc, char** argv, int& i, const std::string& name, std::string* value) {
    const std::string arg = argv[i];
    if (arg.rfind(name + "=", 0) == 0) {
        *value = arg.substr(name.size() + 1);
        return true;
    }
    if (arg != name) return false;
    if (i + 1 >= argc) throw UsageError(name + " needs a value");
    *value = argv[++i];
    return true;
}

}  // namespace grading::cli
