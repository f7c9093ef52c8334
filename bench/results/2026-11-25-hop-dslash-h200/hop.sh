#!/usr/bin/env bash
# Ad-hoc, one nvidia-h200 call: build, GPU tests, then the dslash table timed as the one-parity
# hop (DiracOperator::hop) with M beside it, twice when time allows. Results in $OUT/hop.tgz.
set -uo pipefail
R=$OUT
PARTS="build tests dslash" OUT=$R/t1 bash bench/solver-gpu.sh 2>&1 | tail -5
grep -E "tests passed|tests failed" $R/t1/ctest-gpu.log
if (( SECONDS < 430 )); then PARTS="dslash" OUT=$R/t2 bash bench/solver-gpu.sh > /dev/null 2>&1; fi
echo "== table 1"; cat $R/t1/summary.txt; echo "== table 2"; cat $R/t2/summary.txt 2>/dev/null
mkdir -p $R/keep/t1 $R/keep/t2
cp $R/t1/*.json $R/t1/summary.txt $R/t1/ctest-gpu.log $R/keep/t1/ 2>/dev/null
cp $R/t2/*.json $R/t2/summary.txt $R/keep/t2/ 2>/dev/null
rm -f $R/keep/t2/tunecache.json
tar -C $R/keep -czf $R/hop.tgz . && rm -rf $R/t1 $R/t2 $R/keep
echo "done after $SECONDS s"
