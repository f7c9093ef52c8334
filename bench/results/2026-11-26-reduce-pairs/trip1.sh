#!/usr/bin/env bash
# Call 1 (GPU machine, carry .deps): read-only BLAS reductions with two sites' loads in flight
# (sites_in_flight, launch.cuh). Builds the cuda preset (new), runs the GPU tests, keeps that
# binary, reverts the trait (.deps/reduce-pairs.patch: the blas objects only; launch.cuh's plain
# loop is then the old one) and rebuilds (base). A/B: double-half solves, two rounds with the
# binaries' order swapped: trip2.sh.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export GLUON_TESTDATA=$PWD/.deps/testdata
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
cp build-cuda/bin/gluon build-cuda/gluon-new
patch -R -p1 <.deps/reduce-pairs.patch >>$R/stdout.txt 2>&1
cmake --build build-cuda -j 16 --target gluon >$R/rebuild.log 2>&1 || { tail -30 $R/rebuild.log; exit 1; }
cp build-cuda/bin/gluon build-cuda/gluon-base
patch -p1 <.deps/reduce-pairs.patch >>$R/stdout.txt 2>&1
echo "base rebuilt at $SECONDS s" >>$R/stdout.txt
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
cat "$R/stdout.txt"; tail -3 "$R/gpu/ctest-gpu.log"; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
echo "total $SECONDS s"
