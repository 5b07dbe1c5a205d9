#!/usr/bin/env bash
# Fills the git-ignored .deps/ with what a GPU machine with no network and no
# -dev packages (Ubuntu 24.04, say) needs to build and run the suite, taken
# from this Debian machine's packages: GoogleTest's sources, Google Benchmark,
# bubblewrap's package (.ci/find-bwrap.sh unpacks it there), and the report's
# libraries (pugixml, nlohmann/json, OpenSSL's libcrypto and headers) in one
# prefix, which .ci/gpu-suite.sh and .ci/class-bench.sh pass to CMake; and
# strace's packages, for lab/scripts/mps-sandbox-trace.sh. The folder
# travels with the working tree, so only what a build uses is kept.
#   .ci/device-deps.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps="$root/.deps"
arch=$(gcc -print-multiarch)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

packages=(bubblewrap libbenchmark-dev libbenchmark1debian libpugixml-dev libpugixml1v5 nlohmann-json3-dev libssl-dev libseccomp-dev
  strace libunwind8)
(cd "$work" && { apt-get download "${packages[@]}" 2>/dev/null || { apt-get update -qq && apt-get download "${packages[@]}"; }; })
[ -d /usr/src/googletest/googlemock ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq googletest

rm -rf "$deps" && mkdir -p "$deps"
cp -r /usr/src/googletest "$deps/googletest"  # FETCHCONTENT_SOURCE_DIR_GOOGLETEST
cp "$work"/bubblewrap_*.deb "$deps/"
mkdir -p "$deps/strace" && cp "$work"/{strace,libunwind8}_*.deb "$deps/strace/"
for p in libbenchmark-dev libbenchmark1debian; do dpkg -x "$work/${p}"_*.deb "$deps/benchmark"; done
for p in libpugixml-dev libpugixml1v5 nlohmann-json3-dev libssl-dev libseccomp-dev; do dpkg -x "$work/${p}"_*.deb "$deps/prefix"; done

lib="$deps/prefix/usr/lib/$arch"
# Debian keeps OpenSSL's configuration.h in the multiarch folder, which a
# compiler searches only under /usr: beside the other headers instead.
cp "$deps/prefix/usr/include/$arch/openssl/"* "$deps/prefix/usr/include/openssl/"
rm -r "$deps/prefix/usr/include/$arch"
# libcrypto and libseccomp are linked statically (harness/CMakeLists.txt): libssl and the
# links to shared libraries this prefix does not hold go.
rm -f "$lib/libssl.a" "$lib/libssl.so" "$lib/libcrypto.so" "$lib/libseccomp.so"
rm -rf "$deps"/{benchmark,prefix}/usr/share/doc "$deps"/{benchmark,prefix}/usr/share/man "$deps/prefix/usr/share/pkgconfig" \
  "$lib/pkgconfig"
du -sh "$deps"
