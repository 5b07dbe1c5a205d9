#include "harness/sandbox.h"

#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace grading {
namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? std::string() : std::string(v);
}

std::string findOnPath(const std::string& name) {
    std::istringstream path(env("PATH").empty() ? "/usr/bin:/bin" : env("PATH"));
    for (std::string dir; std::getline(path, dir, ':');) {
        const std::string candidate = dir + "/" + name;
        if (!dir.empty() && access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return {};
}

// GRADING_BWRAP names a bwrap to use (an unpacked .deb, say); else PATH's.
std::string bwrapPath() {
    const std::string chosen = env("GRADING_BWRAP");
    return chosen.empty() ? findOnPath("bwrap") : chosen;
}

bool exists(const std::string& path) {
    struct stat st;
    return lstat(path.c_str(), &st) == 0;
}

std::vector<std::string> globPaths(const std::string& pattern) {
    std::vector<std::string> out;
    glob_t g{};
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
    }
    globfree(&g);
    return out;
}

// A driver or toolkit outside /usr (LD_LIBRARY_PATH), bound read-only.
std::vector<std::string> libraryFoldersOutsideUsr() {
    std::vector<std::string> dirs;
    std::istringstream libs(env("LD_LIBRARY_PATH"));
    for (std::string dir; std::getline(libs, dir, ':');) {
        if (!dir.empty() && dir[0] == '/' && dir.rfind("/usr/", 0) != 0 && exists(dir)) dirs.push_back(dir);
    }
    return dirs;
}

bool under(const std::string& path, const std::string& dir) {
    return path.compare(0, dir.size(), dir) == 0 && (path.size() == dir.size() || dir.back() == '/' || path[dir.size()] == '/');
}

// The filesystem the runner sees: the system read-only, nothing of anyone's.
// As root, bwrap makes the namespaces itself (no user namespace: the runner
// is dropped to a uid of its own by setpriv, so that uid's process limit
// holds, which root's would not); otherwise a user namespace does it.
std::vector<std::string> baseArguments(const SandboxLimits& limits) {
    std::vector<std::string> a = {"--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr", "--ro-bind",
                                  "/etc", "/etc", "--proc", "/proc", "--dev", "/dev", "--perms", "1777",
                                  "--size", std::to_string(limits.tmpBytes), "--tmpfs", kSandboxTmp};
    if (geteuid() == 0) {
        a.insert(a.begin(), {"--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"});
    } else {
        a.insert(a.begin(), "--unshare-all");
    }
    // /bin, /lib, /lib64, /sbin: links into /usr on merged systems, folders elsewhere.
    for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
        char target[4096];
        const ssize_t n = readlink(top, target, sizeof target - 1);
        if (n > 0) {
            a.insert(a.end(), {"--symlink", std::string(target, static_cast<size_t>(n)), top});
        } else if (exists(top)) {
            a.insert(a.end(), {"--ro-bind", top, top});
        }
    }
    // CUDA reads the PCI topology; the driver's nodes are the GPU itself.
    if (exists("/sys")) a.insert(a.end(), {"--ro-bind", "/sys", "/sys"});
    for (const std::string& node : globPaths("/dev/nvidia*")) a.insert(a.end(), {"--dev-bind", node, node});
    if (exists("/dev/dri")) a.insert(a.end(), {"--dev-bind", "/dev/dri", "/dev/dri"});
    for (const std::string& dir : libraryFoldersOutsideUsr()) a.insert(a.end(), {"--ro-bind", dir, dir});
    return a;
}

// A pids cgroup (v1 layout, else v2 under our own group) bounding this run;
// "" when this machine lets us make none (RLIMIT_NPROC is the fallback).
std::string makePidsCgroup(int processes) {
    static std::atomic<unsigned> counter{0};
    const std::string name = "grading-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    std::vector<std::string> parents = {"/sys/fs/cgroup/pids"};
    std::ifstream self("/proc/self/cgroup");
    for (std::string line; std::getline(self, line);) {
        if (line.rfind("0::", 0) == 0) parents.push_back("/sys/fs/cgroup" + line.substr(3));
    }
    for (const std::string& parent : parents) {
        const std::string dir = parent + "/" + name;
        if (mkdir(dir.c_str(), 0755) != 0) continue;
        std::ofstream(dir + "/pids.max") << processes;
        struct stat st;
        if (stat((dir + "/pids.max").c_str(), &st) == 0 && stat((dir + "/cgroup.procs").c_str(), &st) == 0) {
            return dir;
        }
        rmdir(dir.c_str());
    }
    return {};
}

// A uid for one run as root, leased so that its process limit counts this
// runner's processes alone. Runs start their search at different places so
// that finding a free uid takes one try or two.
UidLease leaseUid() {
    static std::atomic<unsigned> counter{0};
    const unsigned start = static_cast<unsigned>(getpid()) * 131u + counter++;
    const std::string& dir = sandboxUidLockDir();
    UidLease lease = leaseSandboxUid(dir, start);
    if (!lease.locked()) {
        static std::atomic<bool> told{false};
        if (!told.exchange(true)) {
            std::fprintf(stderr, "note: no sandbox uid could be locked in '%s'; uids are not kept apart between "
                         "grader processes, so runners graded at once may share a process limit\n", dir.c_str());
        }
        return UidLease(kSandboxFirstUid + static_cast<int>(start % kSandboxUids), -1);
    }
    return lease;
}

// Inside the sandbox, before the runner: as root, become `uid` with no
// capabilities left (setpriv, util-linux).
std::vector<std::string> dropPrivileges(int uid) {
    if (geteuid() != 0) return {};
    const std::string id = std::to_string(uid);
    return {"/usr/bin/setpriv", "--reuid=" + id, "--regid=" + id, "--clear-groups", "--inh-caps=-all",
            "--bounding-set=-all", "--"};
}

}  // namespace

UidLease::UidLease(UidLease&& other) noexcept : uid_(other.uid_), lockFd_(other.lockFd_) { other.lockFd_ = -1; }

UidLease& UidLease::operator=(UidLease&& other) noexcept {
    if (this != &other) {
        if (lockFd_ >= 0) close(lockFd_);
        uid_ = other.uid_;
        lockFd_ = other.lockFd_;
        other.lockFd_ = -1;
    }
    return *this;
}

UidLease::~UidLease() {
    if (lockFd_ >= 0) close(lockFd_);  // the lock goes with the descriptor
}

const std::string& sandboxUidLockDir() {
    static const std::string chosen = [] {
        for (const std::string dir : {std::string("/run/grading-sandbox-uids"),
                                      "/tmp/grading-sandbox-uids-" + std::to_string(geteuid())}) {
            mkdir(dir.c_str(), 0700);
            struct stat st;
            // Root's alone: not a folder a user could have made first.
            if (lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
                (st.st_mode & 077) == 0) {
                return dir;
            }
        }
        return std::string();
    }();
    return chosen;
}

UidLease leaseSandboxUid(const std::string& lockDir, unsigned start) {
    if (lockDir.empty()) return {};
    // A few hundred tries: more runners than that at once is not a class on one machine.
    for (unsigned i = 0; i < 512; ++i) {
        const int uid = kSandboxFirstUid + static_cast<int>((start + i) % kSandboxUids);
        const std::string path = lockDir + "/" + std::to_string(uid);
        const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0) return {};
        // flock locks belong to the open file, so two leases conflict even in one process.
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return UidLease(uid, fd);
        close(fd);
    }
    return {};
}

bool sandboxTurnedOff() { return env("GRADING_SANDBOX") == "off"; }

const std::string& sandboxUnavailable() {
    // Decided once per setting of GRADING_SANDBOX and GRADING_BWRAP.
    static std::map<std::string, std::string> decided;
    const std::string key = env("GRADING_SANDBOX") + "\n" + env("GRADING_BWRAP");
    if (const auto it = decided.find(key); it != decided.end()) return it->second;
    const std::string why = []() -> std::string {
        if (sandboxTurnedOff()) return "GRADING_SANDBOX=off";
        const std::string bwrap = bwrapPath();
        if (bwrap.empty()) return "bwrap (bubblewrap) is not on PATH; install Debian's bubblewrap package";
        ProcessOptions options;
        options.timeLimitSeconds = 30;
        std::vector<std::string> argv = {bwrap};
        const std::vector<std::string> base = baseArguments(SandboxLimits{});
        argv.insert(argv.end(), base.begin(), base.end());
        const UidLease uid = geteuid() == 0 ? leaseUid() : UidLease();
        const std::vector<std::string> drop = dropPrivileges(uid.uid());
        argv.insert(argv.end(), drop.begin(), drop.end());
        argv.push_back("/bin/true");
        const ProcessResult r = runProcess(argv, options);
        if (r.exitedWith(0)) return "";
        return bwrap + " cannot start a sandbox here (" + describeEnd(r) + "): " + r.err.substr(0, 300) +
               "; user namespaces may be off";
    }();
    return decided.emplace(key, why).first->second;
}

bool writableInSandbox(const std::string& path) {
    if (under(path, "/dev")) return true;
    if (!under(path, kSandboxTmp)) return false;
    for (const std::string& dir : libraryFoldersOutsideUsr()) {
        if (under(path, dir)) return false;
    }
    return true;
}

SandboxedCommand sandboxCommand(const std::vector<std::string>& innerArgv, const std::string& runner,
                                const std::string& request, const SandboxLimits& limits, ProcessOptions& options) {
    SandboxedCommand c;
    c.argv = {bwrapPath()};
    const std::vector<std::string> base = baseArguments(limits);
    c.argv.insert(c.argv.end(), base.begin(), base.end());
    // /grading readable by the runner's uid (bwrap would make it root's alone).
    c.argv.insert(c.argv.end(), {"--perms", "0755", "--dir", "/grading", "--ro-bind", runner, kSandboxRunner});
    if (!request.empty()) c.argv.insert(c.argv.end(), {"--ro-bind", request, kSandboxRequest});
    c.argv.insert(c.argv.end(), {"--chdir", kSandboxTmp, "--"});
    if (geteuid() == 0) c.uid = leaseUid();
    const std::vector<std::string> drop = dropPrivileges(c.uid.uid());
    c.argv.insert(c.argv.end(), drop.begin(), drop.end());
    c.argv.insert(c.argv.end(), innerArgv.begin(), innerArgv.end());

    options.environment["TMPDIR"] = kSandboxTmp;
    options.environment["HOME"] = kSandboxTmp;
    options.rlimits.emplace_back(RLIMIT_FSIZE, limits.fileBytes);
    options.rlimits.emplace_back(RLIMIT_CORE, 0);
    c.cgroup = makePidsCgroup(limits.processes);
    if (!c.cgroup.empty()) options.cgroupProcs = c.cgroup + "/cgroup.procs";
    // Counted per real uid: as root the runner's uid is its own; otherwise
    // the user's, so leave room for what the user already runs.
    options.rlimits.emplace_back(RLIMIT_NPROC, static_cast<unsigned long long>(limits.processes) +
                                                   (geteuid() == 0 ? 0 : 4096));
    return c;
}

void removeSandboxCgroup(const std::string& cgroup) {
    if (cgroup.empty()) return;
    // The kill before this (stopChild, runProcess's limit) has ended every
    // process below bwrap; anything the cgroup still lists is killed now,
    // so that it can be removed: cgroup.kill where the kernel has it (5.14),
    // else each process listed.
    bool killAll = false;
    if (const int fd = open((cgroup + "/cgroup.kill").c_str(), O_WRONLY | O_CLOEXEC); fd >= 0) {
        killAll = write(fd, "1", 1) == 1;
        close(fd);
    }
    for (int attempt = 0; attempt < 200 && rmdir(cgroup.c_str()) != 0; ++attempt) {
        if (!killAll) {
            std::ifstream procs(cgroup + "/cgroup.procs");
            for (pid_t pid; procs >> pid;) kill(pid, SIGKILL);
        }
        usleep(5000);
    }
}

}  // namespace grading
