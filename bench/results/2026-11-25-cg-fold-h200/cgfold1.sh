#!/usr/bin/env bash
# Ad-hoc, call 1: build this tree (cuda preset, everything) and the base commit's gluon binary
# (.deps/base, 166b441) side by side; GPU tests of this tree.
set -uo pipefail
R=$OUT
export PATH=/usr/local/cuda/bin:$PATH
S=$SECONDS
mkdir -p .deps/base/.deps && ln -sfn "$PWD/.deps/tomlpp" .deps/base/.deps/tomlpp
( cd .deps/base && cmake --preset cuda >"$R/base-configure.log" 2>&1 && cmake --build build-cuda -j 6 --target gluon >"$R/base-build.log" 2>&1; echo "base build rc $? after $((SECONDS - S)) s" ) &
PARTS="build" JOBS=10 OUT=$R/gpu bash bench/solver-gpu.sh 2>&1 | tail -3
echo "tree build after $((SECONDS - S)) s"
wait
ls -la .deps/base/build-cuda/bin/gluon build-cuda/bin/gluon
PARTS="tests" OUT=$R/gpu bash bench/solver-gpu.sh 2>&1 | tail -3
grep -E "tests passed|tests failed|Failed|\*\*\*" $R/gpu/ctest-gpu.log | head -20
cp $R/gpu/ctest-gpu.log $R/; rm -rf $R/gpu
tail -3 $R/base-build.log
echo "call 1 done after $((SECONDS - S)) s"
