#!/usr/bin/env bash
# Ad-hoc: staggered kernel with 32-bit site bases. Build, GPU tests, the 6 staggered rows 3 times.
set -uo pipefail
R=$OUT
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh 2>&1 | tail -2
grep -E "tests passed|tests failed" $R/gpu/ctest-gpu.log
printf '%s\n' "staggered double 12" "staggered single 12" "staggered half 12" "improved-staggered double 12" "improved-staggered single 12" "improved-staggered half 12" > $R/rows.txt
for run in 1 2 3; do
  TABLE_FILE=$R/rows.txt PARTS="dslash" OUT=$R/run$run bash bench/solver-gpu.sh >/dev/null 2>&1
  echo "== run $run"; cat $R/run$run/summary.txt
  cp $R/run$run/summary.txt $R/summary-$run.txt; rm -rf $R/run$run
done
PARTS="solver" OUT=$R/solve bash bench/solver-gpu.sh >/dev/null 2>&1; grep staggered $R/solve/summary.txt; cp $R/solve/summary.txt $R/solver-summary.txt; rm -rf $R/solve
cp $R/gpu/ctest-gpu.log $R/; rm -rf $R/gpu
