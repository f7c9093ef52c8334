#!/usr/bin/env bash
# On the GPU machine's Xeon host (AVX-512): the CPU vector kernels with the tile-position divides
# by multiply (DivBy, cpu_simd_vector.h) against the commit before, as binaries built on the
# 2-core Debian VM with its g++ 12 (the same compiler for both; carried xz-compressed in
# build-ab/, an ignored folder), so that the host spends no time building.
#   STAGE=test OUT=<dir> bash bench/results/2026-11-28-cpu-divby/trip.sh   the changed kernels' tests
#   STAGE=ab ROUNDS="1 2" OUT=<dir> bash ...                                 separate processes, 48^4,
#     16 OpenMP threads, base and new interleaved, the order swapped every round
set -u
S=$SECONDS
source bench/cpu-ab-binaries.sh  # build-ab/ unpacked into $B (/tmp/ab); $OUT/machine.txt
if [ "${STAGE:-ab}" = test ]; then
  ab_tests wilson unit_dirac_wilson_simd_test "X=1" "GLUON_CPU_TILE_PAIRS=1" "GLUON_CPU_TILE_PAIRS=0" "GLUON_CPU_SIMD=avx2"
  ab_tests staggered unit_dirac_staggered_test "X=1" "GLUON_CPU_SIMD=avx2"
  echo "tests at $((SECONDS - S)) s"
  exit 0
fi
export OMP_NUM_THREADS=16
one() {  # label binary args...
  local label=$1 bin=$2; shift 2
  $bin bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $OUT/$label.json 2> $OUT/$label.err
  python3 -c "
import json
d = json.load(open('$OUT/$label.json'))
print('%-14s %7.1f GFLOP/s %.3f of copy %.1f GB/s %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], d['host'].get('cpu_vector_isa', '')))
" 2>&1 | tee -a $OUT/summary.txt
}
for k in ${ROUNDS:-1 2}; do
  for row in ${ROWS:-"wh12:wilson:half:12" "ch12:clover:half:12" "wd12:wilson:double:12" "ws12:wilson:single:12" \
             "cd12:clover:double:12" "cs12:clover:single:12" "ws8:wilson:single:8" "sh12:staggered:half:12"}; do
    IFS=: read -r lab op prec rec <<< "$row"
    if ((k % 2)); then order="new base"; else order="base new"; fi
    for b in $order; do
      bin=$B/gluon; [ $b = base ] && bin=$B/gluon-base
      one $lab-$b-$k $bin --operator $op --precision $prec --recon $rec
    done
  done
  echo "round $k at $((SECONDS - S)) s"
done
