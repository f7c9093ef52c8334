#!/usr/bin/env bash
# Ad-hoc: programmatic dependent launch A/B. Build, GPU tests (PDL on), then the solver table and
# four dslash rows with GLUON_PDL=0 and =1 alternating, 2 rounds, one tune cache per mode.
set -uo pipefail
R=$OUT
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh 2>&1 | tail -3
grep -E "tests passed|tests failed" $R/gpu/ctest-gpu.log
printf '%s\n' "wilson double 12" "wilson half 12" "staggered double 12" "staggered half 12" > $R/rows.txt
for run in 1 2; do
  for pdl in 0 1; do
    d=$R/pdl$pdl-run$run
    GLUON_PDL=$pdl GLUON_TUNE_CACHE=$R/tune-$pdl.json TABLE_FILE=$R/rows.txt PARTS="dslash solver" OUT=$d bash bench/solver-gpu.sh >/dev/null 2>&1
    echo "== pdl $pdl run $run"; cat $d/summary.txt
  done
done
for pdl in 0 1; do
  GLUON_PDL=$pdl GLUON_TUNE_CACHE=$R/tune-$pdl.json GLUON_PROFILE=1 build-cuda/bin/gluon bench solver --backend cuda --operator staggered --mass 0.05 --precision double \
    --sloppy-precision none --recon 12 --tol 1e-10 --lattice 32,32,32,32 > $R/profile-staggered-none-pdl$pdl.txt 2>&1
  GLUON_PDL=$pdl GLUON_TUNE_CACHE=$R/tune-$pdl.json GLUON_PROFILE=1 build-cuda/bin/gluon bench solver --backend cuda --operator wilson --kappa 0.12 --precision double \
    --sloppy-precision half --recon 12 --tol 1e-10 --lattice 32,32,32,32 > $R/profile-wilson-half-pdl$pdl.txt 2>&1
  head -3 $R/profile-staggered-none-pdl$pdl.txt; tail -2 $R/profile-staggered-none-pdl$pdl.txt
done
rm -rf $R/pdl*-run*/*.json
