#!/usr/bin/env bash
# One nvidia-h200 call (carry .deps) on the fixed tree (the in-place CG fold's tuning restores
# the half residual's norms too; folds in double and single, Wilson and clover): build, GPU tests,
# the unit fold/Wilson/clover tests, rounds 2 and 3 of ab.sh (the new rule against all folds),
# then the dslash, solve and CGNR tables (bench/solver-gpu.sh).
set -u
R=/tmp/res4; rm -rf $R; mkdir -p $R
export GLUON_TESTDATA=$PWD/.deps/testdata
PARTS="build tests" OUT=$R/t bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "build+tests rc $? at $SECONDS s" >>"$R/stdout.txt"
grep -E "Failed|\*\*\*" $R/t/ctest-gpu.log | head -20 >>"$R/stdout.txt"
ctest --test-dir build-cuda -L unit -R "fold|wilson|clover" -j 8 >$R/ctest-unit-fold.log 2>&1
echo "unit fold/wilson/clover tests rc $? at $SECONDS s" >>"$R/stdout.txt"
for round in 2 3; do
  R=$R/ab ROUND=$round MODES="default all" bash bench/results/2026-11-26-fold-floors-h200/ab.sh
  echo "round $round at $SECONDS s" >>"$R/stdout.txt"
done
(( SECONDS < 470 )) && PARTS="dslash solver cgnr" OUT=$R/tables bash bench/solver-gpu.sh >>"$R/stdout.txt" 2>&1
echo "tables at $SECONDS s" >>"$R/stdout.txt"
rm -f $R/t/build.log $R/t/configure.log
tar czf "$OUT/res4.tgz" -C /tmp res4
grep -v "^dslash\|^solver" $R/stdout.txt; tail -3 $R/t/ctest-gpu.log; tail -3 $R/ctest-unit-fold.log; cat $R/ab/summary-r2.txt $R/ab/summary-r3.txt; cat $R/tables/summary.txt; head -5 $R/ab/err.txt
