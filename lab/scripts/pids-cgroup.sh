#!/usr/bin/env bash
# Prints whether this machine lets the grader make a pids cgroup for a
# runner (cgroup v2 under its own, or v1's pids hierarchy), as the sandbox
# tries to (harness/core/src/sandbox.cpp): one line, "pids cgroup: ...".
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
probe=pids-cgroup-probe-$$
if mkdir "/sys/fs/cgroup$own/$probe" 2>/dev/null; then
  rmdir "/sys/fs/cgroup$own/$probe"
  echo "pids cgroup: can be made under /sys/fs/cgroup$own"
elif mkdir "/sys/fs/cgroup/pids/$probe" 2>/dev/null; then
  rmdir "/sys/fs/cgroup/pids/$probe"
  echo "pids cgroup: can be made under /sys/fs/cgroup/pids (v1)"
else
  echo "pids cgroup: none can be made here ($(head -c 200 /proc/self/cgroup | tr '\n' ' '))"
fi
