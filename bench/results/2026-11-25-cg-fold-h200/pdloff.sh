#!/usr/bin/env bash
# Ad-hoc: build, then every GPU test (ctest -L gpu), which now includes five executables run
# whole with GLUON_PDL=0.
set -uo pipefail
R=$OUT
PARTS="build tests" OUT=$R/t bash bench/solver-gpu.sh 2>&1 | tail -3
cp $R/t/ctest-gpu.log $R/; rm -rf $R/t
grep -E "pdl_off|tests passed|tests failed" $R/ctest-gpu.log
