#!/usr/bin/env bash
# One nvidia-h200 call (carry .deps): build (Wilson dslash split into 9 files), the GPU tests
# (the fold tests over every launch variant, and once more with GLUON_WILSON_FOLD=all), then
# round 1 of ab.sh. The build stays for trip4.
set -u
R=/tmp/res3; rm -rf $R; mkdir -p $R
export GLUON_TESTDATA=$PWD/.deps/testdata
PARTS="build tests" OUT=$R/t bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "build+tests rc $? at $SECONDS s" >>"$R/stdout.txt"
grep -E "Failed|\*\*\*" $R/t/ctest-gpu.log | head -20 >>"$R/stdout.txt"
ctest --test-dir build-cuda -L unit -R "fold|wilson|clover" -j 8 >$R/ctest-unit-fold.log 2>&1
echo "unit fold/wilson/clover tests rc $? at $SECONDS s" >>"$R/stdout.txt"
R=$R/ab ROUND=1 bash bench/results/2026-11-26-fold-floors-h200/ab.sh
echo "round 1 at $SECONDS s" >>"$R/stdout.txt"
rm -f $R/t/build.log $R/t/configure.log
tar czf "$OUT/res3.tgz" -C /tmp res3
cat $R/stdout.txt; tail -3 $R/t/ctest-gpu.log; cat $R/ab/summary-r1.txt; head -5 $R/ab/err.txt
