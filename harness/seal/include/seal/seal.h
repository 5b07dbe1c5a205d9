#pragma once
// A student's compiled file, sealed before any runner links it
// (cmake/symbol_check.cmake runs grading_seal, src/seal_main.cpp, on each unit).
//
// The file exports the exercise and nothing else. Its other definitions
// (template instantiations, inline functions, guard variables, vtables,
// whatever CUB, Thrust or libcu++ put there) are renamed to names only it
// uses, so they serve its own code and can replace nothing of the course,
// the harness or a library, whichever object the linker meets first. So a
// file is judged by what its definitions can reach, not by their names.
//
// Refused, with the line a student reads: a strong definition the exercise
// does not declare (a helper must be static or in an anonymous namespace);
// an exercise kernel defined as a host function (no kernel of that name in
// the file's device code); a call of a function the day's contract refuses
// for every use; code that would run before the runner's own first line
// (.preinit_array, IFUNC resolvers), ahead of its system-call filter. Calls the contract allows or refuses by their arguments go
// to the harness's checked versions (grading_checked_<name>, harness/cuda),
// which judge each call as it is made.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/expected.h"
#include "seal/object_file.h"

namespace grading::seal {

inline constexpr const char* kCheckedCallPrefix = "grading_checked_";

struct Rules {
    std::string day;
    std::set<std::string> exports;    // qualified: zdemo::scale, or a kernel outside any namespace
    std::set<std::string> kernels;    // the exports that must be device code
    std::set<std::string> forbidden;  // C functions no use of which the day allows
    std::set<std::string> checked;    // C functions whose calls go to kCheckedCallPrefix + name
    std::string privatePrefix;        // unique to the unit: what its own definitions are renamed with
};

// objcopy --redefine-syms lines: "old new".
struct Plan {
    std::vector<std::pair<std::string, std::string>> renames;
};

// The plan, or the refusal a student reads (the file's name goes before it).
Expected<Plan> plan(const std::vector<ElfFile>& objects, const Rules& rules);

// "zdemo::scale" of "_ZN5zdemo5scaleEPKfPfmf":
// demangled, without its parameters or a template's return type.
std::string qualifiedName(const std::string& symbol);

}  // namespace grading::seal
