#!/usr/bin/env bash
# What a runner's process asks of the kernel that a system-call filter would
# weigh (issue 63, item 5): process creation (clone flags: a thread or a
# process), exec, ptrace and process-memory writes, and executable memory
# (mmap and mprotect with PROT_EXEC, anonymous or of a file). Runs one ctest
# test of a built tree under strace -f and summarises the runners' calls.
#   lab/scripts/runner-syscalls.sh BUILD_DIR TEST_REGEX OUT_DIR
# strace comes from PATH, else from .deps/strace/*.deb (.ci/device-deps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 tests=$2 out=$3
mkdir -p "$out"
strace=$(command -v strace || true)
if [ -z "$strace" ]; then
  for deb in "$root"/.deps/strace/*.deb; do dpkg -x "$deb" /tmp/strace-root; done
  strace=/tmp/strace-root/usr/bin/strace
  export LD_LIBRARY_PATH=/tmp/strace-root/usr/lib/x86_64-linux-gnu
fi
trace="$out/runner.strace"
"$strace" -f -y -qq -o "$trace" \
  -e trace=execve,execveat,clone,clone3,fork,vfork,ptrace,process_vm_writev,mmap,mprotect,pkey_mprotect,memfd_create \
  ctest --test-dir "$build" -R "$tests" >"$out/ctest.txt" 2>&1 || true
# The runners (the processes that exec'd a file under runners/, or
# /grading/runner when sandboxed) with every thread and process they made.
python3 - "$trace" "$tests" "$out/ctest.txt" <<'PY' | tee "$out/summary.txt"
import re, sys
trace, tests, ctest = sys.argv[1:4]
lines = open(trace, errors="replace").read().splitlines()
ours, runners, mine = set(), [], []
for line in lines:
    pid = line.split(" ", 1)[0]
    if re.search(r'execve\("[^"]*(runners/|/grading/runner)', line) and pid not in ours:
        ours.add(pid); runners.append(pid)
        continue  # from here on, the runner's own calls
    made = re.search(r'(clone3?|fork|vfork)\(.*= (\d+)$|<\.\.\. (clone3?|fork|vfork) resumed>.*= (\d+)$', line)
    if made and pid in ours:
        ours.add(made.group(2) or made.group(4))
    if pid in ours:
        mine.append(line)
def count(pattern, exclude=None):
    return sum(1 for l in mine if re.search(pattern, l) and not (exclude and re.search(exclude, l)))
print(f"test: {tests} ({open(ctest).read().strip().splitlines()[-1] if open(ctest).read().strip() else ''})")
print(f"runners: {len(runners)}, their threads and processes: {len(ours)}")
print("clone of a thread (CLONE_THREAD):", count(r'clone3?\(.*CLONE_THREAD'))
print("clone of a process (no CLONE_THREAD), fork, vfork:", count(r'(clone3?|fork|vfork)\(', r'CLONE_THREAD|resumed'))
print("execve after the runner's own:", count(r'execve\('))
print("ptrace, process_vm_writev:", count(r'ptrace\(|process_vm_writev\('))
print("mmap PROT_EXEC, anonymous:", count(r'mmap\(.*PROT_EXEC.*MAP_ANONYMOUS'))
print("mmap PROT_EXEC, of a file:", count(r'mmap\(.*PROT_EXEC', r'MAP_ANONYMOUS'))
print("mprotect adding PROT_EXEC:", count(r'mprotect\(.*PROT_EXEC'))
print("memfd_create:", count(r'memfd_create\('))
mapped = {}
for l in mine:
    m = re.search(r'mmap\(.*PROT_EXEC[^<]*<([^>]*)>', l)
    if m: mapped[m.group(1)] = mapped.get(m.group(1), 0) + 1
print("files mapped PROT_EXEC:", len(mapped))
for path, n in sorted(mapped.items()):
    print(f"   {n} x {path}")
for l in [l for l in mine if re.search(r'mprotect\(.*PROT_EXEC|mmap\(.*PROT_EXEC.*MAP_ANONYMOUS|memfd_create|process_vm|ptrace', l)][:12]:
    print("  ", l[:200])
PY
