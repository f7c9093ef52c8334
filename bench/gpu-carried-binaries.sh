#!/usr/bin/env bash
# Sourced by a GPU trip script that runs a CUDA build made on the development VM
# (bench/gpu-pack-binaries.sh; carry build-gpu, and .deps for the shipped gauge files): unpacks
# build-gpu/ into $G (default /tmp/gpu-build), points the CTest files at it, sets GLUON_TESTDATA
# from .deps/testdata and records the machine and the build in $OUT/machine.txt. Afterwards
#   $G/bin/gluon ...                               the benchmarks
#   (cd $G && ctest -L gpu -j 4 --timeout 300)     the GPU tests, as a build there would list them
# Returns non-zero (with the reason) when build-gpu/ is missing or a shared library the binaries
# need is not on the machine.
G=${G:-/tmp/gpu-build}
_gcb() {
  local from
  [[ -f build-gpu/gpu-bin.tar.xz && -f build-gpu/gpu-ctest.tar.gz && -f build-gpu/BUILD ]] ||
    { echo "gpu-carried-binaries: build-gpu/ is incomplete (bash bench/gpu-pack-binaries.sh here, then carry build-gpu)" >&2; return 1; }
  rm -rf "$G" && mkdir -p "$G" || return 1
  xz -T0 -dc build-gpu/gpu-bin.tar.xz | tar -C "$G" -xf - || return 1
  tar -C "$G" -xzf build-gpu/gpu-ctest.tar.gz || return 1
  from=$(sed -n 's/^build_dir //p' build-gpu/BUILD)
  sed -i "s|$from|$G|g" "$G"/CTestTestfile.cmake "$G"/tests/*.cmake || return 1
  if [[ -z "${GLUON_TESTDATA:-}" && -d .deps/testdata/gauge ]]; then export GLUON_TESTDATA=$PWD/.deps/testdata; fi
  if [[ -n "${OUT:-}" ]]; then
    mkdir -p "$OUT"
    { cat build-gpu/BUILD; nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
      lscpu | grep -E "^CPU\(s\)|Model name"; } > "$OUT/machine.txt" 2>&1
  fi
  # The binaries' RUNPATH names this VM's CUDA folder (/usr/local/cuda/lib); the machine's may be
  # lib64 or the targets folder, when its loader cache does not already list them.
  export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib"
  if ldd "$G/bin/gluon" | grep -q "not found"; then
    echo "gpu-carried-binaries: libraries missing on this machine:" >&2
    ldd "$G/bin/gluon" | grep "not found" >&2
    return 1
  fi
  return 0
}
_gcb
