#!/usr/bin/env bash
# Packs a CUDA build made on the development VM (the `cuda` preset: `make cuda` compiles for sm_90
# without a GPU) into the git-ignored build-gpu/, so that a device trip can run the GPU tests and
# benchmarks without spending the first 6-9 minutes of its call on the build
# (bench/gpu-carried-binaries.sh unpacks it there; carry build-gpu).
#
#   bash bench/gpu-pack-binaries.sh [BUILD_DIR]     # default build-cuda
#
# build-gpu/gpu-bin.tar.xz: bin/gluon and bin/gpu_* stripped (about 650 MB; the test binaries
# repeat the library's device code, so one xz stream with a 256 MiB window keeps about 31 MB;
# single-threaded, about 7 minutes here). build-gpu/gpu-ctest.tar.gz: the build's CTest files
# (the gpu tests as gtest_discover_tests listed them, and the GLUON_PDL=0 / GLUON_WILSON_FOLD=0
# variants of tests/CMakeLists.txt), with the build folder's absolute path left in them for the
# unpacking script to replace. build-gpu/BUILD: the build's commit, tree state and folder.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=$(cd "${1:-build-cuda}" && pwd)
[[ -x $BUILD/bin/gluon ]] || { echo "gpu-pack-binaries: no $BUILD/bin/gluon (make cuda first)" >&2; exit 1; }
grep -q "GLUON_CUDA:BOOL=ON" "$BUILD/CMakeCache.txt" ||
  { echo "gpu-pack-binaries: $BUILD is not a CUDA build (GLUON_CUDA is not ON in its CMakeCache.txt)" >&2; exit 1; }
mkdir -p build-gpu
STAGE=$(mktemp -d "${TMPDIR:-/tmp}/gpu-pack.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/bin"
for f in "$BUILD"/bin/gluon "$BUILD"/bin/gpu_*; do strip -o "$STAGE/bin/$(basename "$f")" "$f"; done
tar -C "$STAGE" -cf - bin | xz -6 --lzma2=preset=6,dict=256MiB -T1 > build-gpu/gpu-bin.tar.xz.tmp
mv build-gpu/gpu-bin.tar.xz.tmp build-gpu/gpu-bin.tar.xz
(cd "$BUILD" && tar -czf - CTestTestfile.cmake tests/CTestTestfile.cmake tests/*.cmake) > build-gpu/gpu-ctest.tar.gz.tmp
mv build-gpu/gpu-ctest.tar.gz.tmp build-gpu/gpu-ctest.tar.gz
{
  echo "build_dir $BUILD"
  echo "commit $(git -C "$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt")" describe --always --dirty)"
  echo "packed $(date -u +%FT%TZ) on $(hostname)"
} > build-gpu/BUILD
cat build-gpu/BUILD
ls -l build-gpu
