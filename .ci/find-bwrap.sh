# Sourced by the GPU scripts: bwrap from PATH, or unpacked from the carried
# .deps/bubblewrap_*.deb (a GPU machine that cannot install packages).
# Sets $bwrap to the one found ("" when none).
if ! command -v bwrap >/dev/null && [ -z "${GRADING_BWRAP:-}" ]; then
  deb=$(ls "$(dirname "${BASH_SOURCE[0]}")"/../.deps/bubblewrap_*.deb 2>/dev/null | head -1)
  if [ -n "$deb" ] && dpkg -x "$deb" /tmp/bubblewrap; then export GRADING_BWRAP=/tmp/bubblewrap/usr/bin/bwrap; fi
fi
bwrap=$(command -v bwrap || echo "${GRADING_BWRAP:-}")
