#!/usr/bin/env bash
# Ad-hoc: the final tree: build (with the base commit's gluon beside it), GPU tests, the dslash
# table, the solve table, then the staggered A/B against the base (.deps/cgfold2.sh).
set -uo pipefail
R=$OUT
export PATH=/usr/local/cuda/bin:$PATH
S=$SECONDS
mkdir -p .deps/base/.deps && ln -sfn "$PWD/.deps/tomlpp" .deps/base/.deps/tomlpp
if [[ ! -x build-base/bin/gluon ]]; then
  ( cmake -S .deps/base -B build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DGLUON_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null 2>&1 &&
    cmake --build build-base -j 6 --target gluon >"$R/base-build.log" 2>&1; echo "base build rc $? after $((SECONDS - S)) s" ) &
fi
PARTS="build" JOBS=10 OUT=$R/t bash bench/solver-gpu.sh 2>&1 | tail -2
wait
PARTS="tests dslash solver" OUT=$R/t bash bench/solver-gpu.sh 2>&1 | tail -32
cp $R/t/summary.txt $R/table-summary.txt; cp $R/t/ctest-gpu.log $R/; cp $R/t/tunecache.json $R/tunecache-table.json; rm -rf $R/t
echo "table done after $((SECONDS - S)) s"
bash .deps/cgfold2.sh
mv $R/summary.txt $R/ab-summary.txt
rm -f $R/tune-base.json $R/tune-fold.json $R/profile-base-*.txt $R/base-build.log
echo "all done after $((SECONDS - S)) s"
