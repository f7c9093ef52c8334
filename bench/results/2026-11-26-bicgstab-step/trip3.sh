#!/usr/bin/env bash
# Call 3 (GPU machine, carry .deps): the session's final tree: build the cuda preset, ctest -L gpu,
# and the dslash table (bench/solver-gpu.sh PARTS="build tests dslash"). trip4.sh runs the solves
# on the same warm machine, with the same tune cache.
set -u
R=/tmp/res3; rm -rf $R; mkdir -p $R/gpu
export GLUON_TESTDATA=$PWD/.deps/testdata
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
PARTS="build tests dslash" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res3.tgz" -C /tmp res3
cat "$R/stdout.txt" | tail -5; grep -E "tests passed|Failed" $R/gpu/ctest-gpu.log | head -5
cat $R/gpu/summary.txt
echo "total $SECONDS s"
