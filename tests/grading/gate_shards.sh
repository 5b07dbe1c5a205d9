#!/usr/bin/env bash
# The sharded gates of the reference and submission suites
# (<suite>.<gate>.shard<k>of<n>): run together, a gate's shards run each of
# its cases exactly once. Every shard runs with no GPU visible, so each case
# only registers and skips.
#   gate_shards.sh BUILD_DIR
set -uo pipefail
build=$1
ctest --test-dir "$build" --show-only=json-v1 >"${TMPDIR:-/tmp}/gate-shards.$$.json" || exit 1
trap 'rm -f "${TMPDIR:-/tmp}/gate-shards.$$.json"' EXIT
python3 - "${TMPDIR:-/tmp}/gate-shards.$$.json" <<'PY'
import collections, json, os, re, subprocess, sys

tests = json.load(open(sys.argv[1]))["tests"]
shards = collections.defaultdict(list)
for t in tests:
    m = re.fullmatch(r"((?:reference|submission)\..+)\.shard([0-9]+)of([0-9]+)", t["name"])
    if m:
        env = {}
        for p in t.get("properties", []):
            if p["name"] == "ENVIRONMENT":
                env.update(v.split("=", 1) for v in p["value"])
        shards[m.group(1)].append((int(m.group(2)), int(m.group(3)), t["command"], env))
if not shards:
    sys.exit("no test is sharded: nothing was registered, or the gates shrank")
for suite in ("reference", "submission"):
    if not any(g.startswith(suite + ".") for g in shards):
        sys.exit(f"no {suite} test is sharded: its large gates run as one test each")

failures = 0
for gate, parts in sorted(shards.items()):
    n = parts[0][1]
    command = parts[0][2]
    listed = subprocess.run(command + ["--gtest_list_tests"], capture_output=True, text=True).stdout
    suite, cases = None, []
    for line in listed.splitlines():
        if not line.startswith(" "):
            suite = line.strip()
        elif line.strip():
            cases.append(suite + line.strip().split()[0])
    ran = collections.Counter()
    for k, total, cmd, env in parts:
        run_env = dict(os.environ, CUDA_VISIBLE_DEVICES="", **env)
        out = subprocess.run(cmd, capture_output=True, text=True, env=run_env).stdout
        ran.update(re.findall(r"^\[ RUN      \] (\S+)$", out, re.M))
    if sorted(k for k, *_ in parts) != list(range(1, n + 1)):
        print(f"{gate}: shards {sorted(k for k, *_ in parts)}, want 1 to {n}")
        failures += 1
    twice = sorted(c for c, count in ran.items() if count > 1)
    missing = sorted(set(cases) - set(ran))
    if twice or missing or not cases:
        print(f"{gate}: {len(cases)} cases; run twice: {twice[:5]}; never run: {missing[:5]}")
        failures += 1
    else:
        print(f"{gate}: {len(cases)} cases over {n} shards, each once")
sys.exit(1 if failures else 0)
PY
