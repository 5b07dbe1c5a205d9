#include "harness/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

extern char** environ;

namespace grading {
namespace {

using Clock = std::chrono::steady_clock;

// How long a kill waits for the processes below the killed child to end.
constexpr double kDescendantsEndSeconds = 10.0;

// Kills the child's group and every process below the child, and waits
// (at most kDescendantsEndSeconds) until those have ended: a pidfd reads
// ready once its process has exited, its files, the GPU's, closed. A
// sandboxed runner lives in a session and PID namespace of its own, out of
// reach of its group's kill, and would die tens of milliseconds after the
// reaped bwrap (docs/performance.md), its kernels still on the GPU that the
// next call gets. The pidfds are taken before the kill, so that none names
// a pid reused since.
void killTree(pid_t pid) {
    std::vector<pollfd> below;
    for (const TreeProcess& p : processesBelow(pid)) {
        const int fd = p.ended ? -1 : static_cast<int>(syscall(SYS_pidfd_open, p.pid, 0));
        if (fd >= 0) below.push_back({fd, POLLIN, 0});
    }
    kill(-pid, SIGKILL);
    for (const pollfd& p : below) syscall(SYS_pidfd_send_signal, p.fd, SIGKILL, nullptr, 0);
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(kDescendantsEndSeconds));
    for (auto running = below; !running.empty() && Clock::now() < deadline;) {
        const auto msLeft = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (poll(running.data(), running.size(), static_cast<int>(std::max<long long>(1, msLeft))) < 0 &&
            errno != EINTR) {
            break;
        }
        running.erase(std::remove_if(running.begin(), running.end(), [](const pollfd& p) { return p.revents != 0; }),
                      running.end());
    }
    for (const pollfd& p : below) close(p.fd);
}

}  // namespace

void appendCapped(std::string* dst, const char* data, size_t n, size_t cap, bool* truncated) {
    if (n >= cap) {  // this read alone is the tail
        *truncated = *truncated || n > cap || !dst->empty();
        dst->assign(data + (n - cap), cap);
        return;
    }
    dst->append(data, n);
    if (dst->size() > cap) *truncated = true;
    if (dst->size() > 2 * cap) dst->erase(0, dst->size() - cap);
}

void keepTails(ProcessResult& p, size_t cap) {
    for (std::string* s : {&p.out, &p.err}) {
        if (s->size() > cap) s->erase(0, s->size() - cap);
    }
}

Child startChild(const std::vector<std::string>& argv, const ProcessOptions& options, bool withInput) {
    Child c;
    if (argv.empty()) {
        c.startError = "no command";
        return c;
    }
    int outPipe[2];
    int errPipe[2];
    int execPipe[2];  // closed on exec; carries errno if exec fails
    int chanPipe[2] = {-1, -1};
    int inPipe[2] = {-1, -1};
    int fd4Pipe[2] = {-1, -1};
    const bool fd4 = !options.bytesOnFd4.empty();
    if (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0 || pipe2(execPipe, O_CLOEXEC) != 0 ||
        (options.channel && pipe2(chanPipe, O_CLOEXEC) != 0) || (withInput && pipe2(inPipe, O_CLOEXEC) != 0) ||
        (fd4 && pipe2(fd4Pipe, O_CLOEXEC) != 0)) {
        c.startError = std::string("pipe: ") + std::strerror(errno);
        return c;
    }
    if (fd4) {
        // Filled before the child starts (it fits the pipe), and closed here
        // once the child has its copy: the child reads to the end.
        const ssize_t n = write(fd4Pipe[1], options.bytesOnFd4.data(), options.bytesOnFd4.size());
        if (n != static_cast<ssize_t>(options.bytesOnFd4.size())) {
            c.startError = "cannot fill the pipe on fd 4 (" + std::to_string(options.bytesOnFd4.size()) + " bytes)";
            for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1], execPipe[0], execPipe[1], chanPipe[0],
                           chanPipe[1], inPipe[0], inPipe[1], fd4Pipe[0], fd4Pipe[1]}) {
                if (fd >= 0) close(fd);
            }
            return c;
        }
    }

    std::vector<std::string> envStrings;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string entry = *e;
        const std::string key = entry.substr(0, entry.find('='));
        const bool wanted = !options.cleanEnvironment ||
                            std::find(options.inherit.begin(), options.inherit.end(), key) != options.inherit.end();
        if (wanted && options.environment.count(key) == 0) envStrings.push_back(entry);
    }
    for (const auto& [k, v] : options.environment) envStrings.push_back(k + "=" + v);
    std::vector<char*> envp;
    for (std::string& s : envStrings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = argv;
    std::vector<char*> argp;
    for (std::string& s : args) argp.push_back(s.data());
    argp.push_back(nullptr);

    const pid_t pid = fork();
    if (pid < 0) {
        c.startError = std::string("fork: ") + std::strerror(errno);
        return c;
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (withInput) {
            dup2(inPipe[0], STDIN_FILENO);
        } else {
            const int devNull = open("/dev/null", O_RDONLY);
            if (devNull >= 0) dup2(devNull, STDIN_FILENO);
        }
        dup2(outPipe[1], STDOUT_FILENO);
        dup2(errPipe[1], STDERR_FILENO);
        // Above the descriptors being set, so no dup2 below closes it first.
        const int fd4Source = fd4 ? fcntl(fd4Pipe[0], F_DUPFD_CLOEXEC, 10) : -1;
        if (options.channel) dup2(chanPipe[1], 3);
        if (fd4) dup2(fd4Source, 4);
        // Nothing else of ours leaks into the child; execPipe closes on exec.
        for (int fd = 3; fd < 1024; ++fd) {
            const bool kept = (fd == 3 && options.channel) || (fd == 4 && fd4) || fd == execPipe[1];
            if (!kept) close(fd);
        }
        for (const auto& [resource, value] : options.rlimits) {
            const rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
            setrlimit(resource, &limit);
        }
        if (!options.cgroupProcs.empty()) {
            // Before exec, so that everything the child starts counts against the cgroup.
            const int fd = open(options.cgroupProcs.c_str(), O_WRONLY | O_CLOEXEC);
            if (fd >= 0) {
                char pid[32];  // no allocation between fork and exec
                const int n = snprintf(pid, sizeof pid, "%d", static_cast<int>(getpid()));
                (void)!write(fd, pid, static_cast<size_t>(n));
                close(fd);
            }
        }
        if (!options.workingDirectory.empty() && chdir(options.workingDirectory.c_str()) != 0) {
            const int e = errno;
            (void)!write(execPipe[1], &e, sizeof(e));
            _exit(127);
        }
        execve(argp[0], argp.data(), envp.data());
        const int e = errno;
        (void)!write(execPipe[1], &e, sizeof(e));
        _exit(127);
    }
    setpgid(pid, pid);  // also from the parent, so a kill of the group cannot miss
    close(outPipe[1]);
    close(errPipe[1]);
    close(execPipe[1]);
    if (options.channel) close(chanPipe[1]);
    if (withInput) close(inPipe[0]);
    if (fd4) {
        close(fd4Pipe[0]);
        close(fd4Pipe[1]);
    }

    int execErrno = 0;
    if (read(execPipe[0], &execErrno, sizeof(execErrno)) == static_cast<ssize_t>(sizeof(execErrno))) {
        close(execPipe[0]);
        close(outPipe[0]);
        close(errPipe[0]);
        if (options.channel) close(chanPipe[0]);
        if (withInput) close(inPipe[1]);
        waitpid(pid, nullptr, 0);
        c.startError = "cannot start " + argv[0] + ": " + std::strerror(execErrno);
        return c;
    }
    close(execPipe[0]);
    c.pid = pid;
    c.out = outPipe[0];
    c.err = errPipe[0];
    c.channel = options.channel ? chanPipe[0] : -1;
    c.input = withInput ? inPipe[1] : -1;
    if (withInput) {
        // Never blocks the grader: a child that stops reading cannot hold it
        // past a deadline. A larger pipe (best effort; the default is 64 KiB)
        // moves a request of a few MiB in fewer wake-ups.
        fcntl(c.input, F_SETFL, fcntl(c.input, F_GETFL) | O_NONBLOCK);
        fcntl(c.input, F_SETPIPE_SZ, kLargePipeBytes);
    }
    if (options.channel) fcntl(c.channel, F_SETPIPE_SZ, kLargePipeBytes);
    return c;
}

int stopChild(Child& child) {
    int status = 0;
    if (child.pid > 0) {
        // Not yet reaped, its pid is still its own, and so is what is below it;
        // once reaped (a session that ended by itself), only its group is left to kill.
        siginfo_t info{};
        if (waitid(P_PID, static_cast<id_t>(child.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
            killTree(child.pid);
        } else {
            kill(-child.pid, SIGKILL);
        }
        while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    for (int* fd : {&child.input, &child.out, &child.err, &child.channel}) {
        if (*fd >= 0) close(*fd);
        *fd = -1;
    }
    child.pid = -1;
    return status;
}

ProcessResult runProcess(const std::vector<std::string>& argv, const ProcessOptions& options) {
    ProcessResult r;
    const auto start = Clock::now();
    Child child = startChild(argv, options, false);
    if (!child.started()) {
        r.startError = child.startError;
        return r;
    }
    const pid_t pid = child.pid;
    r.started = true;
    int outPipe[2] = {child.out, -1};
    int errPipe[2] = {child.err, -1};
    int chanPipe[2] = {child.channel, -1};

    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(options.timeLimitSeconds));
    pollfd fds[3] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}, {chanPipe[0], POLLIN, 0}};
    std::string* sinks[3] = {&r.out, &r.err, &r.channel};
    const int streams = options.channel ? 3 : 2;
    int open = streams;
    char buffer[65536];
    while (open > 0) {
        const auto now = Clock::now();
        if (!r.timedOut && now >= deadline) {
            killTree(pid);
            r.timedOut = true;
        }
        // After the kill, keep draining until the pipes close.
        const int waitMs = r.timedOut ? 1000
                                      : static_cast<int>(std::ceil(
                                            std::chrono::duration<double, std::milli>(deadline - now).count()));
        const int ready = poll(fds, streams, waitMs);
        if (ready < 0 && errno != EINTR) break;
        if (ready == 0 && r.timedOut) break;  // something else holds the pipe open
        for (int i = 0; i < streams; ++i) {
            if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
            const ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
            if (n > 0 && i == 2) {
                // The channel keeps its head: the first record is the one that counts.
                const size_t room = options.channelCap - std::min(options.channelCap, r.channel.size());
                if (static_cast<size_t>(n) > room) r.channelOverflow = true;
                r.channel.append(buffer, std::min(room, static_cast<size_t>(n)));
            } else if (n > 0) {
                appendCapped(sinks[i], buffer, static_cast<size_t>(n), options.outputCap, &r.truncated);
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (int i = 0; i < streams; ++i) {
        if (fds[i].fd >= 0) close(fds[i].fd);
    }

    int status = 0;
    // Pipes are closed; if the child still lives it ignored them, so hold it
    // to the same deadline.
    while (waitpid(pid, &status, r.timedOut ? 0 : WNOHANG) == 0) {
        if (Clock::now() >= deadline) {
            killTree(pid);
            r.timedOut = true;
        } else {
            usleep(1000);
        }
    }
    kill(-pid, SIGKILL);  // anything the child left behind in its group
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    if (r.timedOut && r.signal == SIGKILL) r.signal = 0;
    keepTails(r, options.outputCap);
    return r;
}

std::string describeEnd(const ProcessResult& r) {
    std::ostringstream s;
    if (!r.started) {
        s << r.startError;
    } else if (r.timedOut) {
        s << "killed at the time limit after " << static_cast<int>(r.seconds + 0.5) << " s";
    } else if (r.signal != 0) {
        s << "killed by signal " << r.signal << " (" << strsignal(r.signal) << ")";
    } else {
        s << "exit status " << r.exitCode;
    }
    return s.str();
}

namespace {

// /proc/.../stat: "pid (comm) state ppid ... starttime" (the 22nd field);
// comm may hold spaces and parentheses, so it ends at the last ')'.
std::vector<TreeProcess> readStats(const std::filesystem::path& folder) {
    std::vector<TreeProcess> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        const std::string pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "stat");
        std::string stat;
        std::getline(in, stat);
        const size_t open = stat.find('('), close = stat.rfind(')');
        if (open == std::string::npos || close == std::string::npos || close < open) continue;
        std::istringstream rest(stat.substr(close + 1));
        std::string field;
        TreeProcess p;
        p.pid = std::atoi(pid.c_str());
        p.name = stat.substr(open + 1, close - open - 1);
        for (int k = 3; k <= 22 && rest >> field; ++k) {
            if (k == 3) p.ended = field == "Z" || field == "X";
            if (k == 4) p.parent = std::atoi(field.c_str());
            if (k == 22) p.started = std::strtoull(field.c_str(), nullptr, 10);
        }
        found.push_back(p);
    }
    return found;
}

}  // namespace

std::vector<TreeProcess> threadsOf(int pid) { return readStats("/proc/" + std::to_string(pid) + "/task"); }

std::optional<std::vector<CodeMapping>> codeMappingsOf(int pid) {
    std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
    if (!maps) return std::nullopt;
    std::vector<CodeMapping> code;
    bool any = false;
    // "start-end perms offset dev inode [backing]", the backing padded.
    for (std::string line; std::getline(maps, line);) {
        any = true;
        std::istringstream fields(line);
        std::string range, perms, offset, device, inode;
        if (!(fields >> range >> perms >> offset >> device >> inode) || perms.size() < 3 || perms[2] != 'x') continue;
        std::string backing;
        std::getline(fields >> std::ws, backing);
        code.push_back({range, backing});
    }
    // A process that ended while read shows an empty map.
    if (!any) return std::nullopt;
    return code;
}

std::vector<TreeProcess> processesBelow(int root) {
    std::map<int, std::vector<TreeProcess>> children;
    for (const TreeProcess& p : readStats("/proc")) children[p.parent].push_back(p);
    std::vector<TreeProcess> below;
    std::vector<int> unvisited = {root};
    while (!unvisited.empty()) {
        const int pid = unvisited.back();
        unvisited.pop_back();
        for (const TreeProcess& child : children[pid]) {
            below.push_back(child);
            unvisited.push_back(child.pid);
        }
    }
    return below;
}

}  // namespace grading
