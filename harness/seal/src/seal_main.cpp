// grading_seal: the seal's decision on one compiled student unit (seal.h).
//   grading_seal --archive <lib.a> --day <day> --prefix <private prefix> --map <out>
//                [--export <name>]... [--kernel <name>]... [--forbid <name>]... [--check <name>]...
// Exit 0: <out> holds the renames (objcopy --redefine-syms). Exit 1: refused;
// the reason on stdout, one line. Exit 2: a usage error or an unreadable file.
#include <fstream>
#include <iostream>
#include <sstream>

#include "seal/seal.h"

namespace {

int usage(const std::string& why) {
    std::cerr << "grading_seal: " << why
              << "\nusage: grading_seal --archive <lib.a> --day <day> --prefix <prefix> --map <out>"
                 " [--export|--kernel|--forbid|--check <name>]...\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace grading::seal;
    std::string archivePath, mapPath;
    Rules rules;
    for (int i = 1; i < argc; ++i) {
        const std::string option = argv[i];
        if (i + 1 >= argc) return usage(option + " needs a value");
        const std::string value = argv[++i];
        if (option == "--archive") archivePath = value;
        else if (option == "--map") mapPath = value;
        else if (option == "--day") rules.day = value;
        else if (option == "--prefix") rules.privatePrefix = value;
        else if (option == "--export") rules.exports.insert(value);
        else if (option == "--kernel") rules.kernels.insert(value);
        else if (option == "--forbid") rules.forbidden.insert(value);
        else if (option == "--check") rules.checked.insert(value);
        else return usage("unknown option " + option);
    }
    if (archivePath.empty() || mapPath.empty() || rules.privatePrefix.empty() || rules.exports.empty()) {
        return usage("--archive, --map, --prefix and at least one --export are needed");
    }
    std::ifstream in(archivePath, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in) return usage("cannot read " + archivePath);
    grading::Expected<std::vector<ArchiveMember>> members = readArchive(bytes.str());
    if (!members) {
        std::cerr << archivePath << ": " << members.error() << "\n";
        return 2;
    }
    std::vector<ElfFile> objects;
    for (const ArchiveMember& member : members.value()) {
        grading::Expected<ElfFile> elf = readElf(member.bytes);
        if (!elf) {
            std::cerr << archivePath << "(" << member.name << "): " << elf.error() << "\n";
            return 2;
        }
        objects.push_back(std::move(elf).value());
    }
    const grading::Expected<Plan> sealed = plan(objects, rules);
    if (!sealed) {
        std::cout << sealed.error() << "\n";
        return 1;
    }
    std::ofstream map(mapPath);
    for (const auto& [from, to] : sealed->renames) map << from << " " << to << "\n";
    map.close();
    if (!map) return usage("cannot write " + mapPath);
    return 0;
}
