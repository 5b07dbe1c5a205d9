# Sourced by the MPS lab scripts with OUT_DIR as $1: the repository root,
# bwrap (from PATH or the carried .deb), lab/bench/mps_*.cu built into
# OUT_DIR, the control daemon's pipe and log folders, and client_box: bwrap
# with the host read-only and a /tmp of its own, the pipe folder bound in
# (each script adds its binaries' folder, namespaces, a /proc).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$1
mkdir -p "$out"
source "$root/.ci/find-bwrap.sh"
for program in mps_alloc mps_fault; do
  nvcc -O2 -o "$out/$program" "$root/lab/bench/$program.cu" || { echo "nvcc failed on $program" >&2; exit 1; }
done
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
client_box=("$bwrap" --ro-bind / / --dev-bind /dev /dev --tmpfs /tmp
            --bind "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_PIPE_DIRECTORY" --die-with-parent)
