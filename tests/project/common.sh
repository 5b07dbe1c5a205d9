# Shared by the project checks: configure and build a tree the way this
# build was configured, into a folder of its own.
set -euo pipefail
work="$GRADING_TEST_BUILD/project-checks"
mkdir -p "$work"

configure_args() {
  local args=(-G Ninja "-DCMAKE_CUDA_ARCHITECTURES=${GRADING_TEST_CUDA_ARCHS:-75}")
  if [[ -n "${GRADING_TEST_LAUNCHER:-}" ]]; then
    args+=("-DCMAKE_CXX_COMPILER_LAUNCHER=$GRADING_TEST_LAUNCHER" "-DCMAKE_CUDA_COMPILER_LAUNCHER=$GRADING_TEST_LAUNCHER")
  fi
  [[ -n "${GRADING_TEST_GTEST:-}" ]] && args+=("-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=$GRADING_TEST_GTEST")
  printf '%s\n' "${args[@]}"
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
