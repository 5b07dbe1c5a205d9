# Sourced by the GPU scripts: the libraries .ci/device-deps.sh put in .deps/,
# for a machine that cannot install packages. The prefixes go in the
# environment's CMAKE_PREFIX_PATH, which every configure reads (the suite's,
# grade_class.sh's tool build, the project tests'); GoogleTest's sources in
# deps_args, for the configure that gets them.
deps_args=()
deps_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.deps"
for deps_prefix in "$deps_dir/prefix/usr" "$deps_dir/benchmark/usr"; do
  if [ -d "$deps_prefix" ]; then export CMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:+$CMAKE_PREFIX_PATH:}$deps_prefix"; fi
done
if [ -d "$deps_dir/googletest" ]; then deps_args+=("-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=$deps_dir/googletest"); fi
