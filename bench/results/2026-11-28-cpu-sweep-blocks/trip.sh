#!/usr/bin/env bash
# On the GPU machine's Xeon host (AVX-512, 16 cores, 2 MiB L2 each): the Wilson/clover CPU dslash
# with each thread's sweep over t in blocks of y-rows (GLUON_CPU_BLOCK_ROWS) against the whole
# sweep (0, the order before), inside each process (gluon bench dslash --ab-env), 48^4, 16 OpenMP
# threads. The binaries were built on the 2-core VM (g++ 12) and travel xz-compressed in build-ab/.
#   STAGE=test OUT=<dir> bash bench/results/2026-11-28-cpu-sweep-blocks/trip.sh   the kernel tests
#   ROWS=... ROUNDS="1 2" OUT=<dir> bash ...                                       the A/B
set -u
S=$SECONDS
source bench/cpu-ab-binaries.sh  # build-ab/ unpacked into $B (/tmp/ab); $OUT/machine.txt
if [ "${STAGE:-ab}" = test ]; then
  ab_tests wilson unit_dirac_wilson_simd_test "X=1" "GLUON_CPU_TILE_PAIRS=1" "GLUON_CPU_TILE_PAIRS=0"
  echo "tests at $((SECONDS - S)) s"
  exit 0
fi
export OMP_NUM_THREADS=16
ROWS=${ROWS:-0,auto,4,8,16}
one() {  # label args...
  local label=$1; shift
  $B/gluon bench dslash --backend cpu --lattice ${LAT:-48,48,48,48} --iterations 20 --json "$@" \
    --ab-env GLUON_CPU_BLOCK_ROWS=$ROWS > $OUT/$label.json 2> $OUT/$label.err
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
  for row in ${CASES:-wd12 cd12 ws12 cs12 wh12 ch12 ws8 cs8 wd8 wh8}; do
    op=wilson; [ ${row:0:1} = c ] && op=clover
    p=double; [ ${row:1:1} = s ] && p=single; [ ${row:1:1} = h ] && p=half
    one $row-$k --operator $op --precision $p --recon ${row:2}
  done
  echo "round $k at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
done
