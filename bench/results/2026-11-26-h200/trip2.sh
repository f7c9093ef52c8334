#!/usr/bin/env bash
# Second call on the warm machine (build-cuda kept): the unit suite again with GLUON_TESTDATA set
# (trip1 ran it without), then the CPU dslash table on the Xeon host, AVX-512 build against the
# AVX2 build (GLUON_CPU_SIMD=avx2), 32^4, one run each.
set -u
R=/tmp/res2; rm -rf $R; mkdir -p $R
export GLUON_TESTDATA=$PWD/.deps/testdata
OMP_NUM_THREADS=2 timeout 200 ctest --test-dir build-cuda -L unit -j 8 --output-on-failure >$R/ctest-unit.log 2>&1
echo "unit rc $? at $SECONDS s"; tail -4 $R/ctest-unit.log; grep -E "\(Failed\)|Timeout" $R/ctest-unit.log | head
printf '#!/bin/sh\nGLUON_CPU_SIMD=avx2 exec build-cuda/bin/gluon "$@"\n' >/tmp/avx2.sh; chmod +x /tmp/avx2.sh
OUT=$R/cpu BINS="avx512=build-cuda/bin/gluon avx2=/tmp/avx2.sh" RUNS=1 OPS="wilson clover staggered improved-staggered" \
  PRECS="double single half" RECONS="18 12" LATTICES="32,32,32,32" ITER=20 WAIT=3 timeout $((540 - SECONDS)) bash bench/dslash-cpu.sh >$R/cpu.log 2>&1
echo "cpu rc $? at $SECONDS s"
tar czf "$OUT/res2.tgz" -C /tmp res2
cat $R/cpu/summary.txt
echo "total $SECONDS s"
