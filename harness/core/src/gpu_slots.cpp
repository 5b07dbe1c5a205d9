#include "harness/gpu_slots.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace grading {
namespace {

std::string slotDir() {
    const char* base = std::getenv("TMPDIR");
    std::string dir = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/grading-gpu-slots";
    mkdir(dir.c_str(), 01777);
    chmod(dir.c_str(), 01777);  // shared by every user who grades on this machine
    return dir;
}

int openFile(const std::string& path) { return open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666); }

// Lock files of one kind: "<dir>/gpu-<gpu>.<kind><k>".
int openNumbered(const std::string& dir, const std::string& gpu, const char* kind, int k) {
    return openFile(dir + "/gpu-" + gpu + "." + kind + std::to_string(k));
}

int openSlot(const std::string& dir, const std::string& gpu, int k) { return openNumbered(dir, gpu, "slot", k); }

// The first of `count` lock files of `kind` free to lock now, tried from
// `first` round (so waiters spread over them): its descriptor, locked
// exclusively; kAllHeld when every one is another's; kUnbounded when one
// cannot be opened (an unwritable slot dir bounds nothing).
constexpr int kAllHeld = -1;
constexpr int kUnbounded = -2;
int lockOneFree(const std::string& dir, const std::string& gpu, const char* kind, int count, int first) {
    for (int k = 0; k < count; ++k) {
        const int fd = openNumbered(dir, gpu, kind, (k + first) % count);
        if (fd < 0) return kUnbounded;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
        close(fd);
    }
    return kAllHeld;
}

// The queue for exclusive use of the GPU: an exclusive caller holds it while it gathers
// the slots, and a plain caller takes none while it is held. So a timed call
// waits only for the calls already running, not for every call that starts
// after it, and it does not sit on half the slots meanwhile.
int openQueue(const std::string& dir, const std::string& gpu) { return openFile(dir + "/gpu-" + gpu + ".queue"); }

// Held shared by each runner starting, and exclusively by a timed call once
// it has every slot: starts wait for a timed call, and it for them.
int openStartLock(const std::string& dir, const std::string& gpu) { return openFile(dir + "/gpu-" + gpu + ".start"); }

// A count from the environment: `fallback` when unset or not a count up to `most`.
int countFromEnv(const char* name, int fallback, int most = 1024) {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0') return fallback;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    return *end == '\0' && n >= 0 && n <= most ? static_cast<int>(n) : fallback;
}

// The process holding `file` locked, as /proc/locks names it ("1: FLOCK
// ADVISORY WRITE <pid> <major>:<minor>:<inode> 0 EOF"; a waiter's line has
// "->" after its number), each with its command line (a class's test names
// its student in its runner's path, past a long build folder); "" when none.
std::string holdersOf(const std::string& file) {
    struct stat st;
    if (stat(file.c_str(), &st) != 0) return {};
    std::string holders;
    std::ifstream locks("/proc/locks");
    for (std::string line; std::getline(locks, line);) {
        if (line.find("->") != std::string::npos) continue;
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string word; words >> word;) w.push_back(word);
        for (size_t i = 1; i < w.size(); ++i) {
            unsigned major = 0, minor = 0;
            unsigned long long inode = 0;
            if (std::sscanf(w[i].c_str(), "%x:%x:%llu", &major, &minor, &inode) != 3) continue;
            if (inode == st.st_ino && major == major(st.st_dev) && minor == minor(st.st_dev)) {
                std::ifstream cmdline("/proc/" + w[i - 1] + "/cmdline");
                std::string args((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
                while (!args.empty() && args.back() == '\0') args.pop_back();
                for (char& c : args) c = c == '\0' ? ' ' : c;
                holders += (holders.empty() ? "pid " : "; pid ") + w[i - 1] + " (" + args.substr(0, 300) + ")";
            }
            break;
        }
    }
    return holders;
}

// A wait for a GPU's locks that may last: once it has lasted
// GRADING_SLOT_WAIT_NOTICE seconds (default 300; 0: never), and again each
// as long after, it says on stderr what it waits for and who holds each of
// that GPU's lock files, so a test that waits without end names the holder
// in its own output. Its thread starts at the first lock found taken.
class LongWaitNotice {
public:
    // `use` as GRADING_SLOT_TRACE names it.
    LongWaitNotice(std::string dir, std::string gpu, std::string use)
        : dir_(std::move(dir)), gpu_(std::move(gpu)), use_(std::move(use)) {}
    LongWaitNotice(const LongWaitNotice&) = delete;
    LongWaitNotice& operator=(const LongWaitNotice&) = delete;
    ~LongWaitNotice() {
        if (!thread_.joinable()) return;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            ended_ = true;
        }
        wake_.notify_one();
        thread_.join();
    }

    void waiting() {
        if (thread_.joinable()) return;
        const int seconds = countFromEnv("GRADING_SLOT_WAIT_NOTICE", 300, 86400);
        if (seconds > 0) thread_ = std::thread([this, seconds] { sayWhileWaiting(std::chrono::seconds(seconds)); });
    }

private:
    void sayWhileWaiting(std::chrono::seconds every) {
        const auto since = std::chrono::steady_clock::now();
        std::unique_lock<std::mutex> lock(mutex_);
        while (!wake_.wait_for(lock, every, [this] { return ended_; })) {
            const auto waited = std::chrono::steady_clock::now() - since;
            std::string line = "grading: pid " + std::to_string(getpid()) + " has waited " +
                               std::to_string(std::chrono::duration_cast<std::chrono::seconds>(waited).count()) +
                               " s for GPU " + gpu_ + " (" + use_ + "); its lock files' holders:";
            bool any = false;
            for (const std::string& name : lockFiles()) {
                const std::string holders = holdersOf(dir_ + "/" + name);
                if (!holders.empty()) line += "\n  " + name + ": " + holders;
                any = any || !holders.empty();
            }
            line += any ? "\n" : " none\n";
            (void)!write(STDERR_FILENO, line.data(), line.size());
        }
    }

    std::vector<std::string> lockFiles() const {
        std::vector<std::string> names;
        const std::string prefix = "gpu-" + gpu_ + ".";
        if (DIR* d = opendir(dir_.c_str())) {
            while (const dirent* e = readdir(d)) {
                if (std::string(e->d_name).rfind(prefix, 0) == 0) names.push_back(e->d_name);
            }
            closedir(d);
        }
        std::sort(names.begin(), names.end());
        return names;
    }

    std::string dir_, gpu_, use_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool ended_ = false;
    std::thread thread_;
};

// Takes `op` (LOCK_SH or LOCK_EX) on `fd`, waiting as long as it takes.
void lockWaiting(int fd, int op, LongWaitNotice& notice) {
    if (flock(fd, op | LOCK_NB) == 0) return;
    notice.waiting();
    while (flock(fd, op) != 0) {
    }
}

// Whether another holds `fd` exclusively: on the queue, a timed call
// gathering its slots; on the start lock, one holding the GPU exclusively.
bool heldExclusively(int fd) {
    if (fd < 0 || flock(fd, LOCK_SH | LOCK_NB) == 0) {
        if (fd >= 0) flock(fd, LOCK_UN);
        return false;
    }
    return true;
}

// Blocks, holding nothing, until a caller queued for the GPU exclusively has
// gathered its slots (it then leaves the queue) and given the start lock
// back at the end of its exclusive hold. The kernel wakes the waiter as each lock
// drops: with a 20 ms poll the callers waiting when an exclusive hold ended got their
// slots 8-50 ms after it on average on the H200, so the GPU ran fewer calls
// at once after each exclusive hold.
void waitOutExclusive(int queue, int start, LongWaitNotice& notice) {
    for (const int fd : {queue, start}) {
        if (fd < 0) continue;
        lockWaiting(fd, LOCK_SH, notice);
        flock(fd, LOCK_UN);
    }
}

// A GPU's name as it goes into file names and the trace.
std::string fileSafe(const std::string& gpuName) {
    std::string gpu;
    for (char c : gpuName) gpu += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return gpu;
}

int64_t epochUs() {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// One line of GRADING_SLOT_TRACE (gpu_slots.h), if it is set; `releasedUs`
// read before the lock dropped, so no later holder's got comes before it.
void traceHold(const std::string& gpu, const char* use, int64_t askedUs, int64_t gotUs, int64_t releasedUs) {
    const char* path = std::getenv("GRADING_SLOT_TRACE");
    if (path == nullptr || *path == '\0') return;
    // One write of one line to a file opened for appending: the lines of
    // every grading process on the machine stay whole.
    const std::string line = gpu + "\t" + use + "\t" + std::to_string(askedUs) + "\t" + std::to_string(gotUs) + "\t" +
                             std::to_string(releasedUs) + "\t" + std::to_string(getpid()) + "\n";
    const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) return;
    (void)!write(fd, line.data(), line.size());
    close(fd);
}

const char* useName(GpuUse use) {
    switch (use) {
        case GpuUse::Shared: return "shared";
        case GpuUse::Exclusive: return "exclusive";
        case GpuUse::Startup: return "startup";
    }
    return "?";
}

}  // namespace

int gpuSlotsPerDevice() { return countFromEnv("GRADING_GPU_SLOTS", 8); }

int timedTurnsPerDevice() { return countFromEnv("GRADING_TIMED_TURNS", 0); }

GpuSlot::GpuSlot(const std::string& gpuName, GpuUse use) : gpu_(fileSafe(gpuName)), use_(use), askedUs_(epochUs()) {
    const int slots = gpuSlotsPerDevice();
    bounded_ = slots != 0;
    if (bounded_) take(slots);
    gotUs_ = epochUs();
}

void GpuSlot::take(int slots) {
    const std::string dir = slotDir();
    LongWaitNotice notice(dir, gpu_, useName(use_));
    const int queue = openQueue(dir, gpu_);
    if (use_ == GpuUse::Exclusive) {
        // Queued first (one exclusive caller gathers at a time), then every
        // slot in order, blocking, then the starts under way; the queue is
        // left once they are all held.
        if (queue >= 0) lockWaiting(queue, LOCK_EX, notice);
        for (int k = 0; k < slots; ++k) {
            const int fd = openSlot(dir, gpu_, k);
            if (fd < 0) continue;  // an unwritable slot dir bounds nothing, and blocks nothing
            lockWaiting(fd, LOCK_EX, notice);
            fds_.push_back(fd);
            ++slots_;
        }
        if (const int fd = openStartLock(dir, gpu_); fd >= 0) {
            lockWaiting(fd, LOCK_EX, notice);
            fds_.push_back(fd);
        }
        if (queue >= 0) close(queue);
        return;
    }
    if (use_ == GpuUse::Startup) {
        const int fd = openStartLock(dir, gpu_);
        while (fd >= 0) {
            if (heldExclusively(queue)) waitOutExclusive(queue, -1, notice);
            lockWaiting(fd, LOCK_SH, notice);  // waits out an exclusive hold under way
            if (!heldExclusively(queue)) break;
            flock(fd, LOCK_UN);  // a timed call queued meanwhile: it gathers first
        }
        if (fd >= 0) fds_.push_back(fd);
        if (queue >= 0) close(queue);
        return;
    }
    const int start = openStartLock(dir, gpu_);  // only waited on
    for (int attempt = 0;; ++attempt) {
        if (heldExclusively(queue) || heldExclusively(start)) {
            waitOutExclusive(queue, start, notice);
            continue;
        }
        const int fd = lockOneFree(dir, gpu_, "slot", slots, attempt);
        if (fd != kAllHeld) {
            if (fd >= 0) {
                fds_.push_back(fd);
                ++slots_;
            }
            if (queue >= 0) close(queue);
            if (start >= 0) close(start);
            return;
        }
        // Every slot is a shared call's (or an exclusive hold began just now): try again.
        notice.waiting();
        if (!heldExclusively(queue) && !heldExclusively(start)) usleep(20000);
    }
}

bool GpuSlot::exclusiveWanted() const {
    if (!bounded_) return false;
    const int queue = openQueue(slotDir(), gpu_);
    const bool wanted = heldExclusively(queue);
    if (queue >= 0) close(queue);
    return wanted;
}

GpuSlot::~GpuSlot() {
    const int64_t releasedUs = epochUs();
    for (int fd : fds_) close(fd);  // closing drops the lock
    if (bounded_) traceHold(gpu_, useName(use_), askedUs_, gotUs_, releasedUs);
}

TimedTurn::TimedTurn(const std::string& gpuName) : gpu_(fileSafe(gpuName)), askedUs_(epochUs()) {
    const int turns = timedTurnsPerDevice();
    if (turns == 0) return;
    const std::string dir = slotDir();
    LongWaitNotice notice(dir, gpu_, "turn");
    for (int attempt = 0;; ++attempt) {
        const int fd = lockOneFree(dir, gpu_, "turn", turns, attempt);
        if (fd == kUnbounded) return;
        if (fd != kAllHeld) {
            fd_ = fd;
            break;
        }
        notice.waiting();
        usleep(20000);
    }
    gotUs_ = epochUs();
}

TimedTurn::~TimedTurn() {
    if (fd_ < 0) return;
    const int64_t releasedUs = epochUs();
    close(fd_);
    traceHold(gpu_, "turn", askedUs_, gotUs_, releasedUs);
}

}  // namespace grading
