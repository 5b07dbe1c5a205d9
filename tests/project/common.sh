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

# A repository with the build and the harness but no day: what new-day
# scaffolds into. Then `new-day zdemo` for the checks that need a small day.
bare_repo() {
  rm -rf "$1" && mkdir -p "$1/reference" "$1/exercises"
  cp -r "$GRADING_TEST_SOURCE"/{CMakeLists.txt,CMakePresets.json,cmake,harness} "$1/"
  local day
  for day in "$GRADING_TEST_SOURCE"/reference/*/; do
    rm -rf "$1/harness/$(basename "$day")"
  done
}
zdemo_repo() {
  bare_repo "$1"
  "$1/harness/tools/new-day" zdemo --root "$1" >/dev/null
}
