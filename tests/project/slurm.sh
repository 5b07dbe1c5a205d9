#!/usr/bin/env bash
# grade_class.sh against a real single-node Slurm (munge, slurmctld and
# slurmd from Debian, started here and stopped at the end): a class of four
# students, sharded over three array tasks with one seed, merged by a job
# that runs after them; then the same with one task cancelled, which the
# merge reports instead of dropping. GPU tests skip on this machine; the
# flow is the point. Skips (77) without root or the Slurm packages.
source "$(dirname "$0")/common.sh"
for tool in slurmctld slurmd munged sbatch squeue scontrol scancel; do
  command -v "$tool" >/dev/null || { echo "skipping: $tool is not installed (apt-get install slurmctld slurmd munge)"; exit 77; }
done
[[ $(id -u) -eq 0 ]] || { echo "skipping: starting slurmd and munged needs root"; exit 77; }

state="$work/slurm"
rm -rf "$state" && mkdir -p "$state"/{spool,ctld,log}
chmod 755 "$state"
node="$(hostname -s)"
cpus="$(nproc)"
export SLURM_CONF="$state/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=grading-test
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
NodeName=$node CPUs=$cpus State=UNKNOWN
PartitionName=grading Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF

# munge: a key of this run's own, its daemon on a socket of its own.
mkdir -p "$state/munge"
dd if=/dev/urandom of="$state/munge/munge.key" bs=1 count=1024 2>/dev/null
chmod 400 "$state/munge/munge.key"
munged --force --key-file="$state/munge/munge.key" --socket="$state/munge/socket" \
  --pid-file="$state/munge/munged.pid" --log-file="$state/log/munged.log" --seed-file="$state/munge/seed"
export MUNGE_SOCKET="$state/munge/socket"
echo "AuthInfo=socket=$state/munge/socket" >>"$SLURM_CONF"
stop() {
  for pid in "$state/slurmd.pid" "$state/slurmctld.pid" "$state/munge/munged.pid"; do
    [[ -s "$pid" ]] && kill "$(cat "$pid")" 2>/dev/null || true
  done
}
trap stop EXIT
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed)' && break
  sleep 1
done
sinfo -h -o '%P %T %c' || fail "Slurm did not come up; see $state/log"

# The class: a tiny scaffolded day, four students (one who does not compile).
repo="$work/slurm-repo"
zdemo_repo "$repo"
subs="$work/slurm-class"
rm -rf "$subs"
for s in ana ben cleo dev; do
  mkdir -p "$subs/$s/zdemo"
  cp "$repo/reference/zdemo/solution/zdemo.cu" "$subs/$s/zdemo/zdemo.cu"
done
echo "not C++" >>"$subs/ben/zdemo/zdemo.cu"
mapfile -t args < <(configure_args)

wait_for() {  # job id: until it has left the queue
  for _ in $(seq 1200); do
    [[ -z "$(squeue -h -j "$1" 2>/dev/null)" ]] && return 0
    sleep 1
  done
  fail "job $1 did not finish in 20 minutes"
}

out="$work/slurm-out"
rm -rf "$out"
submitted=$(bash "$repo/harness/grading/grade_class.sh" slurm "$subs" "$out" --shards 3 --seed 2026 --build-args "${args[@]}")
echo "$submitted"
merge_job=$(echo "$submitted" | sed -n 's/^submitted: .*merge job \([0-9]*\) after it$/\1/p')
[[ -n "$merge_job" ]] || fail "no merge job was submitted"
wait_for "$merge_job"
[[ -f "$out/done" ]] || { cat "$out/slurm/"*.log; fail "the merged class has no done marker"; }
csv="$out/summary.csv"
for s in ana ben cleo dev; do grep -q "^$s," "$csv" || { cat "$csv"; fail "$s is missing from the merged class table"; }; done
grep -q "^ben,FAIL," "$csv" || { cat "$csv"; fail "ben's build gate does not read FAIL"; }
for i in 0 1 2; do grep -q "^seed: 2026$" "$out/slurm/shard-$i.log" || fail "shard $i did not grade with the class's seed"; done
echo "three array tasks graded the class with one seed; the merge job made one table:"
cat "$csv"

# A task that never runs is reported by the merge, and fails it.
out2="$work/slurm-out-cancelled"
rm -rf "$out2"
submitted=$(bash "$repo/harness/grading/grade_class.sh" slurm "$subs" "$out2" --shards 3 --seed 2026 --build-args "${args[@]}")
array=$(echo "$submitted" | sed -n 's/^submitted: shards job \([0-9]*\) .*/\1/p')
merge_job=$(echo "$submitted" | sed -n 's/^submitted: .*merge job \([0-9]*\) after it$/\1/p')
scancel "${array}_2"
wait_for "$merge_job"
[[ ! -f "$out2/done" ]] || fail "the merge passed with a cancelled shard"
grep -q "shards/2: did not finish" "$out2/slurm/merge.log" || { cat "$out2/slurm/merge.log"; fail "the merge did not name the missing shard"; }
echo "a cancelled shard: the merge says so and fails"
