#pragma once
// What the seal reads of a compiled submission (harness/seal/seal.h): the
// members of a static library, each member's ELF symbols and sections, and
// the kernels of the device code nvcc embeds in its .nv_fatbin section.
// Every reader checks its bounds: a malformed file is an error message,
// never a crash.
#include <set>
#include <string>
#include <vector>

#include "harness/expected.h"

namespace grading::seal {

struct ArchiveMember {
    std::string name;
    std::string bytes;
};

// The object files of a System V / GNU ar archive (its symbol index and
// long-name table are not members).
Expected<std::vector<ArchiveMember>> readArchive(const std::string& bytes);

struct Symbol {
    std::string name;
    unsigned char binding = 0;  // STB_LOCAL, STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE
    unsigned char type = 0;     // STT_FUNC, STT_OBJECT, STT_SECTION, ...
    unsigned char other = 0;    // st_other: visibility, and CUDA's entry flag
    bool defined = false;       // in a section of this file (or absolute, or common)
};

struct Section {
    std::string name;
    std::string bytes;  // empty for SHT_NOBITS
};

// A 64-bit little-endian ELF file: a host object or a device cubin.
struct ElfFile {
    std::vector<Symbol> symbols;
    std::vector<Section> sections;
};
Expected<ElfFile> readElf(const std::string& bytes);

// The device code of one .nv_fatbin section: for each image it could read
// (a cubin, or PTX stored uncompressed), the kernels it defines, by mangled
// name; and how many images it could not read (compressed).
struct DeviceCode {
    std::vector<std::set<std::string>> kernelsPerImage;
    int unreadableImages = 0;
};
Expected<DeviceCode> readFatbin(const std::string& section);

}  // namespace grading::seal
