#pragma once
// The sandbox every runner built from submitted code runs in: bubblewrap
// (bwrap) with
//   - a new root holding only /usr, /etc and /sys read-only, the GPU's device
//     nodes, a fresh /proc and /dev;
//   - the runner and its request read-only under /grading, and a private
//     /tmp (its TMPDIR and HOME) in memory, bounded in size, gone afterwards:
//     no other student's files, no build folder, no report to write into;
//   - no network, a PID namespace of its own (a daemon it starts dies with
//     it; it cannot see or signal the grader), a new session;
//   - as root: namespaces made by bwrap, and the runner started by setpriv
//     with no capabilities as a uid no other sandbox on the machine holds
//     meanwhile (UidLease); otherwise a user namespace;
//   - bounds on processes (RLIMIT_NPROC of that uid, and a pids cgroup where
//     one can be made), file size and, by the runner client, run time.
// GRADING_SANDBOX=off turns it off, which the instructor must ask for: then
// submitted code runs with the grader's rights.
#include <string>
#include <vector>

#include "harness/process.h"

namespace grading {

// Required: a runner of submitted code; no sandbox is an error. Preferred:
// the instructor's own code (reference, planted bugs); without a sandbox it
// runs unsandboxed. Off: never (the protocol's own tests, GRADING_SANDBOX=off).
enum class SandboxPolicy { Required, Preferred, Off };

struct SandboxLimits {
    unsigned long long tmpBytes = 256ull << 20;   // the private /tmp
    unsigned long long fileBytes = 256ull << 20;  // RLIMIT_FSIZE
    int processes = 256;                          // pids.max, or RLIMIT_NPROC
};

// Why the sandbox cannot be used here ("" when it can), decided once per
// process: GRADING_SANDBOX=off, no bwrap on PATH, or bwrap unable to start
// (no user namespaces).
const std::string& sandboxUnavailable();
bool sandboxTurnedOff();  // GRADING_SANDBOX=off

// A uid lent to one sandbox: a locked file per uid in a folder only root
// may write, so no two runners graded at once (in any grader process) share
// a uid, and with it RLIMIT_NPROC's count: a fork bomb cannot use up an
// honest neighbour's processes. Given back when the lease is destroyed, so
// keep it until the sandbox's processes are gone (removeSandboxCgroup).
class UidLease {
public:
    UidLease() = default;
    UidLease(int uid, int lockFd) : uid_(uid), lockFd_(lockFd) {}
    UidLease(UidLease&& other) noexcept;
    UidLease& operator=(UidLease&& other) noexcept;
    UidLease(const UidLease&) = delete;
    UidLease& operator=(const UidLease&) = delete;
    ~UidLease();
    int uid() const { return uid_; }
    bool locked() const { return lockFd_ >= 0; }

private:
    int uid_ = -1;
    int lockFd_ = -1;
};

constexpr int kSandboxFirstUid = 400000;
constexpr int kSandboxUids = 50000;
// The first uid from kSandboxFirstUid + `start` % kSandboxUids on (wrapping)
// that no one holds, locked in `lockDir`; not locked() when none could be.
UidLease leaseSandboxUid(const std::string& lockDir, unsigned start);
// Where the sandbox's leases are locked, chosen once: /run/grading-sandbox-uids,
// else a folder in /tmp; "" when neither is root's alone.
const std::string& sandboxUidLockDir();

// A sandboxed run of `argv` (argv[0] the runner, or compute-sanitizer with
// the runner after it): returns the command to start and sets up `options`
// (its environment, limits and cgroup). `runner` and `request` are host
// paths, bound read-only at /grading/runner and /grading/request.rec (no
// request: a session, whose requests come on stdin); the caller's argv must
// already name them by those inside paths (see kSandboxRunner, kSandboxRequest).
struct SandboxedCommand {
    std::vector<std::string> argv;
    std::string cgroup;  // a pids cgroup made for this run ("" when none): remove after
    UidLease uid;        // as root, the runner's uid: keep it until the cgroup is removed
};
SandboxedCommand sandboxCommand(const std::vector<std::string>& innerArgv, const std::string& runner,
                                const std::string& request, const SandboxLimits& limits, ProcessOptions& options);
// Kills whatever is left in the run's cgroup (its processes are in a session
// and PID namespace of their own, out of reach of the runner's group kill)
// and removes it once empty.
void removeSandboxCgroup(const std::string& cgroup);

// Whether a sandboxed runner could have written the file at `path` (as it
// sees it) itself: its /tmp, less the library folders bound there read-only,
// and /dev (its shm). Mapping such a file as code is making code at run time.
bool writableInSandbox(const std::string& path);

constexpr const char* kSandboxRunner = "/grading/runner";
constexpr const char* kSandboxRequest = "/grading/request.rec";
constexpr const char* kSandboxTmp = "/tmp";

}  // namespace grading
