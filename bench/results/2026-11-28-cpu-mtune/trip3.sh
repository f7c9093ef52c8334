#!/usr/bin/env bash
# The committed change (r8 files of their own, GLUON_AVX512_R8_FLAGS) on the Xeon host: the vector
# kernel tests, then the two rows it changed and two it should not have, three processes each.
#   OUT=<dir> bash bench/results/2026-11-28-cpu-mtune/trip3.sh
set -u
source bench/cpu-ab-binaries.sh
ab_tests wilson unit_dirac_wilson_simd_test "GLUON_CPU_TILE_PAIRS=auto"
ab_tests staggered unit_dirac_staggered_test "GLUON_CPU_TILE_PAIRS=auto"
export OMP_NUM_THREADS=16
for k in 1 2 3; do
  for row in "wd8 wilson double 8" "ss8 staggered single 8" "wd12 wilson double 12" "ss12 staggered single 12"; do
    set -- $row
    $B/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json --operator $2 --precision $3 --recon $4 \
      > $OUT/$1-$k.json 2> $OUT/$1-$k.err
    python3 -c "import json; d=json.load(open('$OUT/$1-$k.json')); print('%-6s %7.1f GFLOP/s %.3f of copy %6.1f GB/s' % ('$1-$k', d['gflops'], d['fraction_of_copy'], d['copy_gbs']))" | tee -a $OUT/summary.txt
  done
done
