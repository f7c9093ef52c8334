#!/usr/bin/env bash
# Ad-hoc: build this tree and the base commit's gluon (.deps/base = 166b441, built in build-base/
# so that the next carry of .deps does not remove it) side by side; the staggered GPU tests;
# then .deps/cgfold2.sh's A/B of the staggered solves.
set -uo pipefail
R=$OUT
export PATH=/usr/local/cuda/bin:$PATH
S=$SECONDS
mkdir -p .deps/base/.deps && ln -sfn "$PWD/.deps/tomlpp" .deps/base/.deps/tomlpp
if [[ ! -x build-base/bin/gluon ]]; then
  ( cmake -S .deps/base -B build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DGLUON_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >"$R/base-configure.log" 2>&1 &&
    cmake --build build-base -j 6 --target gluon >"$R/base-build.log" 2>&1; echo "base build rc $? after $((SECONDS - S)) s" ) &
fi
PARTS="build" JOBS=10 OUT=$R/gpu bash bench/solver-gpu.sh 2>&1 | tail -3
echo "tree build after $((SECONDS - S)) s"
wait
ls -la build-base/bin/gluon build-cuda/bin/gluon || tail -20 $R/base-build.log $R/base-configure.log
PARTS="tests" OUT=$R/gpu bash bench/solver-gpu.sh 2>&1 | tail -2; cp $R/gpu/ctest-gpu.log $R/
rm -rf $R/gpu
sed -i 's|G=.deps/base/build-cuda/bin/gluon|G=build-base/bin/gluon|' .deps/cgfold2.sh
bash .deps/cgfold2.sh
echo "all done after $((SECONDS - S)) s"
