#!/usr/bin/env bash
# The GPU machine's build step of the trip scripts (bench/results/*/trip.sh), from the repository
# root: configure the 'cuda' preset in build-cuda and build the given targets (none: all) with
# -j16, toml++ coming from the carried .deps (bench/run-gpu.sh says how). The configure and build
# logs go to $OUT and are removed on success; on failure the error lines and the configure log's
# tail are printed and the exit status is 1. Prints "built N s".
#   bash bench/gpu-build.sh gluon gpu_solver_test || exit 1
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
targets=()
for t in "$@"; do targets+=(--target "$t"); done
{ cmake --preset cuda > "$OUT/configure.log" 2>&1 && cmake --build build-cuda -j 16 "${targets[@]}" > "$OUT/build.log" 2>&1; } ||
  { grep -E "error|rror:" "$OUT/build.log" | head -30; tail "$OUT/configure.log"; exit 1; }
echo "built $((SECONDS-S)) s"
rm -f "$OUT/build.log" "$OUT/configure.log"
