#!/usr/bin/env bash
# trip6: trip5.sh's steps on the final commit (148950d: static_assert, formatting): build, GPU
# tests, the unit fold/Wilson/clover tests, the dslash, solve and CGNR tables twice.
set -u
R=/tmp/res6; rm -rf $R; mkdir -p $R
export GLUON_TESTDATA=$PWD/.deps/testdata
PARTS="build tests" OUT=$R/t bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "build+tests rc $? at $SECONDS s" >>"$R/stdout.txt"
grep -E "Failed|\*\*\*" $R/t/ctest-gpu.log | head -20 >>"$R/stdout.txt"
OMP_NUM_THREADS=2 ctest --test-dir build-cuda -L unit -j 8 --output-on-failure >$R/ctest-unit-fold.log 2>&1
echo "unit tests rc $? at $SECONDS s" >>"$R/stdout.txt"
PARTS="dslash solver cgnr" OUT=$R/tables1 bash bench/solver-gpu.sh >/dev/null 2>&1
echo "tables1 at $SECONDS s" >>"$R/stdout.txt"
(( SECONDS < 480 )) && PARTS="solver cgnr" GLUON_TUNE_CACHE=$R/tables1/tunecache.json OUT=$R/tables2 bash bench/solver-gpu.sh >/dev/null 2>&1
echo "tables2 at $SECONDS s" >>"$R/stdout.txt"
rm -f $R/t/build.log $R/t/configure.log; gzip -9 $R/tables*/bench.log 2>/dev/null
tar czf "$OUT/res6.tgz" -C /tmp res6
cat $R/stdout.txt; tail -3 $R/t/ctest-gpu.log; tail -3 $R/ctest-unit-fold.log; cat $R/tables1/summary.txt; grep solver $R/tables2/summary.txt
