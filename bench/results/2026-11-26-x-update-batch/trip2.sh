#!/usr/bin/env bash
# Call 2 (GPU machine, carry .deps): the session's final tree (batched CG update with its last
# restructure, float site sums for half reductions): build, the GPU tests, and the solve and CGNR
# tables of bench/solver-gpu.sh (32^4, tol 1e-10, default --x-update-batch 4).
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R
export GLUON_TESTDATA=$PWD/.deps/testdata
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } >$R/machine.txt 2>&1
PARTS="build tests solver cgnr" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
rm -f $R/gpu/build.log $R/gpu/configure.log $R/gpu/tunecache.json
tar czf "$OUT/res.tgz" -C /tmp res
cat "$R/stdout.txt"; tail -3 "$R/gpu/ctest-gpu.log"; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
cat "$R/gpu/summary.txt"
echo "total $SECONDS s"
