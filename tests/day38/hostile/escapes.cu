// fails: none
// passes: 38.distances@edge_word_graph
// Hostile submission: before main, tries what a sandbox must deny, and
// sabotages the distances (vertex 0 at -(1000 + what worked)) if anything
// did: running as root (1), seeing the machine's folders (2), a network
// interface besides loopback (4), writing more than 256 MiB to its temp
// folder (16), seeing the grader's processes (32). Inside the sandbox none
// works, the distances are the solution's and every gate it names passes;
// outside, the message says what got through. Making processes is refused
// by the runner's system-call filter before the sandbox's process bound is
// reached (forks_before_main.cu; the bound alone: tests/harness/sandbox_test.cpp).
#include <dirent.h>
#include <ifaddrs.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "bfs_mappings.h"
namespace day38 {
static void referenceExpandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                                         const LevelOutput& out, const EdgeScratch& scratch);
}  // namespace day38
#define expandEdgePerThread referenceExpandEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef expandEdgePerThread

namespace {

// Entries of a folder (-1: cannot be read); numeric ones only if asked (processes in /proc).
int entries(const char* path, bool numericOnly = false) {
    DIR* d = opendir(path);
    if (d == nullptr) return -1;
    int n = 0;
    for (dirent* e = readdir(d); e != nullptr; e = readdir(d)) {
        if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, "..")) continue;
        n += !numericOnly || std::atoi(e->d_name) > 0;
    }
    closedir(d);
    return n;
}

int escaped() {
    int what = 0;
    if (getuid() == 0) what |= 1;
    if (entries("/root") >= 0 || entries("/home") > 0 || entries("/work") > 0) what |= 2;
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) == 0) {
        for (ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
            if (a->ifa_name != nullptr && std::strcmp(a->ifa_name, "lo") != 0) what |= 4;
        }
        freeifaddrs(list);
    }
    const char* tmp = std::getenv("TMPDIR");
    const std::string fill = std::string(tmp != nullptr ? tmp : "/tmp") + "/fill";
    {
        std::ofstream out(fill, std::ios::binary);
        static char block[1 << 20];
        long long written = 0;
        signal(SIGXFSZ, SIG_IGN);
        while (written <= (256ll << 20) && out.write(block, sizeof block)) written += sizeof block;
        out.flush();
        if (out && written > (256ll << 20)) what |= 16;
    }
    std::remove(fill.c_str());
    if (entries("/proc", true) > 16) what |= 32;  // a PID namespace of its own shows a handful
    return what;
}

const int whatWorked = escaped();

__global__ void sabotage(int* dist, int code) { dist[0] = -(1000 + code); }

}  // namespace

namespace day38 {

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
    if (whatWorked != 0) sabotage<<<1, 1>>>(out.dist, whatWorked);
}

}  // namespace day38
