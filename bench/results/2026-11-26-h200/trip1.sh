#!/usr/bin/env bash
# One nvidia-h200 call (carry .deps): build HEAD, the GPU tests, the whole CPU unit suite on the
# GPU machine's AVX-512 host (the vector kernels changed since it last ran there), then the dslash,
# solve and CGNR tables (bench/solver-gpu.sh). Results in $OUT/res.tgz; the build stays in
# build-cuda for the next call while the machine is warm.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)|Flags" | sed -E 's/(Flags:).*(avx512f).*/\1 ... \2 .../'; } >$R/machine.txt 2>&1
PARTS="build tests dslash solver cgnr" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
build-cuda/bin/gluon info >$R/info.txt 2>&1
OMP_NUM_THREADS=2 timeout $((560 - SECONDS)) ctest --test-dir build-cuda -L unit -j 8 --output-on-failure >$R/ctest-unit.log 2>&1
echo "unit rc $? at $SECONDS s" >>"$R/stdout.txt"
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
grep -E "done after|rc " "$R/stdout.txt"
tail -3 "$R/gpu/ctest-gpu.log"; tail -4 $R/ctest-unit.log; grep -E "Failed|\*\*\*" $R/ctest-unit.log | head
cat "$R/gpu/summary.txt"; cat $R/machine.txt | head -5; grep -i "cpu kernels" $R/info.txt
echo "total $SECONDS s"
