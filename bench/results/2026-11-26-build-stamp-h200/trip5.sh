#!/usr/bin/env bash
# Call 5 (nvidia-h200, carry .deps): the final tree on the GPU machine: build, the GPU tests, the
# dslash, solve and CGNR tables (bench/solver-gpu.sh), then the CPU unit suite on its AVX-512 host.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R
export GLUON_TESTDATA=$PWD/.deps/testdata
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
PARTS="build tests dslash solver cgnr" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
build-cuda/bin/gluon info >$R/info.txt 2>&1
OMP_NUM_THREADS=2 timeout $((570 - SECONDS)) ctest --test-dir build-cuda -L unit -j 8 --output-on-failure >$R/ctest-unit.log 2>&1
echo "unit rc $? at $SECONDS s" >>"$R/stdout.txt"
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
grep -E "done after|rc " "$R/stdout.txt"
tail -3 "$R/gpu/ctest-gpu.log"; tail -4 $R/ctest-unit.log; grep -E "Failed|\*\*\*" $R/ctest-unit.log | head
cat "$R/gpu/summary.txt"
echo "total $SECONDS s"
