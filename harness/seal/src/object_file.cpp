#include "seal/object_file.h"

#include <elf.h>

#include <cstdint>
#include <cstring>

namespace grading::seal {
namespace {

// Reads a T at `at` of `bytes` when it fits.
template <class T>
bool readAt(const std::string& bytes, uint64_t at, T* out) {
    if (at > bytes.size() || bytes.size() - at < sizeof(T)) return false;
    std::memcpy(out, bytes.data() + at, sizeof(T));
    return true;
}

bool fits(const std::string& bytes, uint64_t at, uint64_t size) {
    return at <= bytes.size() && size <= bytes.size() - at;
}

std::string trimmed(const std::string& field) {
    const size_t end = field.find_last_not_of(' ');
    return end == std::string::npos ? "" : field.substr(0, end + 1);
}

// A NUL-terminated string at `offset` of a string table.
Expected<std::string> stringAt(const std::string& table, uint64_t offset, const char* what) {
    if (offset >= table.size()) return Error{std::string(what) + " name past its string table"};
    const size_t end = table.find('\0', offset);
    if (end == std::string::npos) return Error{std::string(what) + " name not terminated"};
    return table.substr(offset, end - offset);
}

}  // namespace

Expected<std::vector<ArchiveMember>> readArchive(const std::string& bytes) {
    static const std::string kMagic = "!<arch>\n";
    if (bytes.compare(0, kMagic.size(), kMagic) != 0) return Error{"not an ar archive (no !<arch> header)"};
    constexpr size_t kHeader = 60;
    std::vector<ArchiveMember> members;
    std::string longNames;
    size_t at = kMagic.size();
    while (at < bytes.size()) {
        if (bytes[at] == '\n') {  // padding to an even offset
            ++at;
            continue;
        }
        if (!fits(bytes, at, kHeader) || bytes.compare(at + 58, 2, "`\n") != 0) {
            return Error{"archive member header at byte " + std::to_string(at) + " is malformed"};
        }
        const std::string name = trimmed(bytes.substr(at, 16));
        const std::string sizeField = trimmed(bytes.substr(at + 48, 10));
        if (sizeField.empty() || sizeField.find_first_not_of("0123456789") != std::string::npos) {
            return Error{"archive member at byte " + std::to_string(at) + " has no size"};
        }
        const uint64_t size = std::stoull(sizeField);
        if (!fits(bytes, at + kHeader, size)) return Error{"archive member " + name + " runs past the archive's end"};
        std::string body = bytes.substr(at + kHeader, size);
        at += kHeader + size;
        if (name == "/" || name == "/SYM64/") continue;  // the symbol index
        if (name == "//") {
            longNames = std::move(body);
            continue;
        }
        std::string memberName = name;
        if (name.size() > 1 && name[0] == '/') {  // "/<offset>" into the long-name table
            const std::string digits = name.substr(1);
            if (digits.find_first_not_of("0123456789") != std::string::npos) {
                return Error{"archive member name " + name + " is malformed"};
            }
            const uint64_t offset = std::stoull(digits);
            const size_t end = offset < longNames.size() ? longNames.find("/\n", offset) : std::string::npos;
            if (end == std::string::npos) return Error{"archive member name " + name + " is not in its name table"};
            memberName = longNames.substr(offset, end - offset);
        } else if (!memberName.empty() && memberName.back() == '/') {
            memberName.pop_back();
        }
        members.push_back({memberName, std::move(body)});
    }
    return members;
}

Expected<ElfFile> readElf(const std::string& bytes) {
    Elf64_Ehdr header;
    if (!readAt(bytes, 0, &header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
        return Error{"not an ELF file"};
    }
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
        return Error{"not a 64-bit little-endian ELF file"};
    }
    if (header.e_shoff == 0) return ElfFile{};
    if (header.e_shentsize != sizeof(Elf64_Shdr)) return Error{"ELF section headers of an unknown size"};
    Elf64_Shdr first;
    if (!readAt(bytes, header.e_shoff, &first)) return Error{"ELF section headers past the file's end"};
    // Past 0xff00 sections, the count and the names' index live in section 0.
    const uint64_t count = header.e_shnum != 0 ? header.e_shnum : first.sh_size;
    const uint64_t namesIndex = header.e_shstrndx != SHN_XINDEX ? header.e_shstrndx : first.sh_link;
    if (!fits(bytes, header.e_shoff, count * sizeof(Elf64_Shdr)) || count > bytes.size()) {
        return Error{"ELF section headers past the file's end"};
    }
    std::vector<Elf64_Shdr> headers(count);
    std::vector<std::string> contents(count);
    for (uint64_t i = 0; i < count; ++i) {
        readAt(bytes, header.e_shoff + i * sizeof(Elf64_Shdr), &headers[i]);
        if (headers[i].sh_type == SHT_NOBITS || headers[i].sh_type == SHT_NULL) continue;
        if (!fits(bytes, headers[i].sh_offset, headers[i].sh_size)) {
            return Error{"ELF section " + std::to_string(i) + " runs past the file's end"};
        }
        contents[i] = bytes.substr(headers[i].sh_offset, headers[i].sh_size);
    }
    if (namesIndex >= count) return Error{"ELF section names in no section"};
    ElfFile elf;
    for (uint64_t i = 0; i < count; ++i) {
        Expected<std::string> name = stringAt(contents[namesIndex], headers[i].sh_name, "section");
        if (!name) return Error{name.error()};
        elf.sections.push_back({name.value(), contents[i]});
    }
    for (uint64_t i = 0; i < count; ++i) {
        if (headers[i].sh_type != SHT_SYMTAB) continue;
        if (headers[i].sh_entsize != sizeof(Elf64_Sym) || headers[i].sh_link >= count) {
            return Error{"ELF symbol table " + std::to_string(i) + " is malformed"};
        }
        const std::string& table = contents[i];
        const std::string& names = contents[headers[i].sh_link];
        for (uint64_t at = 0; at + sizeof(Elf64_Sym) <= table.size(); at += sizeof(Elf64_Sym)) {
            Elf64_Sym raw;
            readAt(table, at, &raw);
            Expected<std::string> name = stringAt(names, raw.st_name, "symbol");
            if (!name) return Error{name.error()};
            elf.symbols.push_back({name.value(), static_cast<unsigned char>(ELF64_ST_BIND(raw.st_info)),
                                   static_cast<unsigned char>(ELF64_ST_TYPE(raw.st_info)), raw.st_other,
                                   raw.st_shndx != SHN_UNDEF});
        }
    }
    return elf;
}

namespace {

// nvcc's fatbin container (no public header describes it; fatbinary_section.h
// only wraps it): a header, then images, each with a header of its own.
constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr uint16_t kPtxImage = 1;
constexpr uint16_t kCubinImage = 2;
constexpr uint64_t kCompressedLz4 = 0x2000;
constexpr uint64_t kCompressedZstd = 0x8000;
// CUDA marks a kernel's symbol in a cubin with this bit of st_other.
constexpr unsigned char kCudaEntry = 0x10;

#pragma pack(push, 1)
struct FatbinHeader {
    uint32_t magic;
    uint16_t version;
    uint16_t headerSize;
    uint64_t bodySize;
};
struct ImageHeader {
    uint16_t kind;
    uint16_t version;
    uint32_t headerSize;
    uint64_t payloadSize;
    uint32_t compressedSize;
    uint32_t reserved0;
    uint16_t minor;
    uint16_t major;
    uint32_t arch;
    uint32_t nameOffset;
    uint32_t nameSize;
    uint64_t flags;
    uint64_t reserved1;
    uint64_t uncompressedSize;
};
#pragma pack(pop)

std::set<std::string> cubinKernels(const ElfFile& cubin) {
    std::set<std::string> kernels;
    for (const Symbol& s : cubin.symbols) {
        if (s.defined && s.type == STT_FUNC && (s.other & kCudaEntry) != 0) kernels.insert(s.name);
    }
    return kernels;
}

// ".entry <name>(" in PTX text.
std::set<std::string> ptxKernels(const std::string& ptx) {
    std::set<std::string> kernels;
    static const std::string kEntry = ".entry";
    for (size_t at = ptx.find(kEntry); at != std::string::npos; at = ptx.find(kEntry, at + 1)) {
        size_t begin = at + kEntry.size();
        if (begin >= ptx.size() || (ptx[begin] != ' ' && ptx[begin] != '\t')) continue;
        begin = ptx.find_first_not_of(" \t", begin);
        if (begin == std::string::npos) break;
        const size_t end = ptx.find_first_of("( \t\r\n", begin);
        kernels.insert(ptx.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    }
    return kernels;
}

}  // namespace

Expected<DeviceCode> readFatbin(const std::string& section) {
    DeviceCode code;
    uint64_t at = 0;
    while (at < section.size()) {
        FatbinHeader fatbin;
        if (!readAt(section, at, &fatbin) || fatbin.magic != kFatbinMagic) {
            at += 8;  // fatbins are 8-byte aligned, with zero padding between them
            continue;
        }
        const uint64_t bodyStart = at + fatbin.headerSize;
        if (!fits(section, bodyStart, fatbin.bodySize)) return Error{"a fatbin runs past its section's end"};
        const uint64_t bodyEnd = bodyStart + fatbin.bodySize;
        for (uint64_t image = bodyStart; image < bodyEnd;) {
            ImageHeader h;
            if (!readAt(section, image, &h) || h.headerSize < sizeof(ImageHeader) ||
                !fits(section, image + h.headerSize, h.payloadSize) || image + h.headerSize + h.payloadSize > bodyEnd) {
                return Error{"a fatbin image header at byte " + std::to_string(image) + " is malformed"};
            }
            const std::string payload = section.substr(image + h.headerSize, h.payloadSize);
            image += h.headerSize + h.payloadSize;
            const bool compressed =
                (h.flags & (kCompressedLz4 | kCompressedZstd)) != 0 || h.uncompressedSize != 0;
            if (h.kind != kPtxImage && h.kind != kCubinImage) continue;
            if (compressed) {
                ++code.unreadableImages;
                continue;
            }
            if (h.kind == kPtxImage) {
                code.kernelsPerImage.push_back(ptxKernels(payload));
                continue;
            }
            Expected<ElfFile> cubin = readElf(payload);
            if (!cubin) return Error{"a cubin in the fatbin: " + cubin.error()};
            code.kernelsPerImage.push_back(cubinKernels(cubin.value()));
        }
        at = bodyEnd;
    }
    return code;
}

}  // namespace grading::seal
