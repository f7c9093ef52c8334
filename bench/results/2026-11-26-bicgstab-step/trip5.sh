#!/usr/bin/env bash
# Call 5 (GPU machine, carry .deps): the review-mended tree (finisher outputs as an array; no
# arithmetic change): build the cuda preset and run ctest -L gpu, then the Wilson and clover
# BiCGstab double solve once each to confirm iterations and fractions.
set -u
R=/tmp/res5; rm -rf $R; mkdir -p $R/gpu
export GLUON_TESTDATA=$PWD/.deps/testdata
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >$R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
for op in wilson clover; do
  build-cuda/bin/gluon bench solver --backend cuda --operator $op --kappa 0.12 --csw 1.0 --solver bicgstab \
    --precision double --recon 12 --tol 1e-10 --lattice 32,32,32,32 >>$R/solves.txt 2>&1
done
rm -f $R/gpu/build.log $R/gpu/configure.log $R/gpu/tunecache.json
tar czf "$OUT/res5.tgz" -C /tmp res5
tail -3 "$R/stdout.txt"; grep -E "tests passed|Failed" $R/gpu/ctest-gpu.log | head -5; grep -E "solver|GFLOP" $R/solves.txt
echo "total $SECONDS s"
