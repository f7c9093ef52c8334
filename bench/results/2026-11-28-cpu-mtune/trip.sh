#!/usr/bin/env bash
# On the GPU machine's Xeon host (AVX-512, 16 cores): the CPU dslash kernels compiled for
# x86-64-v4 as built (a, generic tuning) against the same source compiled with other GCC options,
# inside each process (gluon bench dslash --ab-env GLUON_CPU_TUNE_VARIANT=...), 48^4, 16 OpenMP
# threads. Trip 1: s = -mtune=sapphirerapids, e = that and -fschedule-insns -fsched-pressure
# (Wilson/clover kernels only). Trip 2: p = -fschedule-insns -fsched-pressure alone, and e, the
# staggered kernels too. Binaries built on the 2-core VM (g++ 12), carried xz-compressed in build-ab/.
#   STAGE=test OUT=<dir> bash bench/results/2026-11-28-cpu-mtune/trip.sh   the kernel tests
#   VARS=a,p,e ROUNDS="1 2" OUT=<dir> bash ...                                       the A/B
set -u
S=$SECONDS
source bench/cpu-ab-binaries.sh  # build-ab/ unpacked into $B (/tmp/ab); $OUT/machine.txt
if [ "${STAGE:-ab}" = test ]; then
  ab_tests wilson unit_dirac_wilson_simd_test "GLUON_CPU_TUNE_VARIANT=p" "GLUON_CPU_TUNE_VARIANT=e"
  ab_tests staggered unit_dirac_staggered_test "GLUON_CPU_TUNE_VARIANT=p" "GLUON_CPU_TUNE_VARIANT=e"
  echo "tests at $((SECONDS - S)) s"
  exit 0
fi
export OMP_NUM_THREADS=16
VARS=${VARS:-a,p,e}
one() {  # label args...
  local label=$1; shift
  $B/gluon bench dslash --backend cpu --lattice ${LAT:-48,48,48,48} --iterations 20 --json "$@" \
    --ab-env GLUON_CPU_TUNE_VARIANT=$VARS > $OUT/$label.json 2> $OUT/$label.err
  python3 -c "
import json
d = json.load(open('$OUT/$label.json'))
runs = d['ab']['runs']
base = runs[0]['gflops']
print('%-10s %6.1f GFLOP/s %.3f of copy %5.1f GB/s | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'],
      '  '.join('%s %6.1f (%.3f, x%.3f)' % ('/'.join(r['values']), r['gflops'], r['fraction_of_copy'], r['gflops'] / base) for r in runs)))
" 2>&1 | tee -a $OUT/summary.txt
}
for k in ${ROUNDS:-1 2}; do
  for row in ${CASES:-wd12 cd12 ws12 cs12 wh12 ch12 ws8 cs8 wd8 wh8 sd12 ss8 sh8}; do
    op=wilson; [ ${row:0:1} = c ] && op=clover; [ ${row:0:1} = s ] && op=staggered; [ ${row:0:1} = i ] && op=improved-staggered
    p=double; [ ${row:1:1} = s ] && p=single; [ ${row:1:1} = h ] && p=half
    one $row-$k --operator $op --precision $p --recon ${row:2}
  done
  echo "round $k at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
done
