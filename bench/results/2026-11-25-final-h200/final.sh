#!/usr/bin/env bash
# Ad-hoc: the session's final tree: build, GPU tests, the whole dslash table twice, the solver table.
set -uo pipefail
R=$OUT
PARTS="build tests dslash solver" OUT=$R/t1 bash bench/solver-gpu.sh 2>&1 | tail -5
grep -E "tests passed|tests failed" $R/t1/ctest-gpu.log
PARTS="dslash" OUT=$R/t2 bash bench/solver-gpu.sh > /dev/null 2>&1
echo "== table 1"; cat $R/t1/summary.txt; echo "== table 2"; cat $R/t2/summary.txt
mkdir -p $R/keep; cp $R/t1/summary.txt $R/keep/summary-1.txt; cp $R/t2/summary.txt $R/keep/summary-2.txt; cp $R/t1/ctest-gpu.log $R/t1/tunecache.json $R/keep/
rm -rf $R/t1 $R/t2
