#!/usr/bin/env bash
# Call 8 (GPU machine): the final tree's cuda build and `ctest -L gpu` (no GPU kernel changed in
# this work, but bench dslash did), and one GPU dslash with --ab-env (a variable no GPU kernel
# reads: the two settings must agree) to check the GPU path of the in-process A/B.
set -u
R=/tmp/lp8; rm -rf $R; mkdir -p $R/gpu
S=$SECONDS
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh > $R/stdout.txt 2>&1; echo "rc $? at $((SECONDS - S)) s" >> $R/stdout.txt
build-cuda/bin/gluon bench dslash --backend cuda --operator wilson --precision single --recon 12 --lattice 32,32,32,32 \
  --ab-env GLUON_CPU_PREFETCH=all,ahead > $R/gpu/dslash-ab.txt 2>&1; echo "ab rc $?" >> $R/stdout.txt
rm -f $R/gpu/build.log $R/gpu/configure.log
tar -czf $OUT/lp8.tgz -C $R .
cat $R/stdout.txt; tail -3 $R/gpu/ctest-gpu.log; grep -E "Failed|\*\*\*Failed" $R/gpu/ctest-gpu.log | head; grep -E "GFLOP|A/B" $R/gpu/dslash-ab.txt
echo "total $((SECONDS - S)) s"
