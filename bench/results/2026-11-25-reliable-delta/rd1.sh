#!/usr/bin/env bash
# Device call 1: build this tree (cuda preset) and the base commit 8e133c3's gluon beside it
# (from .deps/base, a git archive of that commit), then the GPU tests of this tree.
set -uo pipefail
R=$OUT
export PATH=/usr/local/cuda/bin:$PATH
S=$SECONDS
mkdir -p .deps/base/.deps && ln -sfn "$PWD/.deps/tomlpp" .deps/base/.deps/tomlpp
( cmake -S .deps/base -B build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DGLUON_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null 2>&1 &&
  cmake --build build-base -j 6 --target gluon >"$R/base-build.log" 2>&1; echo "base build rc $? after $((SECONDS - S)) s" ) &
PARTS="build" JOBS=10 OUT=$R/t bash bench/solver-gpu.sh 2>&1 | tail -2
wait
PARTS="tests" OUT=$R/t bash bench/solver-gpu.sh 2>&1 | tail -4
cp $R/t/ctest-gpu.log $R/; rm -rf $R/t
[[ -x build-base/bin/gluon ]] || tail -20 $R/base-build.log
rm -f $R/base-build.log
echo "call 1 done after $((SECONDS - S)) s"
