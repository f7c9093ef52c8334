#!/usr/bin/env bash
# Call 6 (GPU machine, fresh): the final tree's cuda build and `ctest -L gpu`. No GPU kernel
# changed, but the GPU tests compare against the CPU operators, which on this host's AVX-512
# now run single and half with tile pairs.
set -u
R=/tmp/tp5; rm -rf $R; mkdir -p $R/gpu
S=$SECONDS
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh > $R/stdout.txt 2>&1; echo "rc $? at $((SECONDS - S)) s" >> $R/stdout.txt
rm -f $R/gpu/build.log $R/gpu/configure.log
tar -czf $OUT/tp5.tgz -C $R .
cat $R/stdout.txt; tail -3 $R/gpu/ctest-gpu.log; grep -E "\*\*\*Failed" $R/gpu/ctest-gpu.log | head
echo "total $((SECONDS - S)) s"
