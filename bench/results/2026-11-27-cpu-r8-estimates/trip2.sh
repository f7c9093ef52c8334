#!/usr/bin/env bash
# Trip 2, the Xeon host (configured and built here unless a warm machine kept trip 1's build): the tree with ab-switch.patch applied
# (a measurement-only switch, GLUON_R8_OLD_MATH=1: the commit before's reduced-angle sincos and
# IEEE sqrt/div, read at each dslash call), gluon rebuilt, then each r8 row in one process with
# the two settings interleaved (--ab-env, 1,0,1,0), 48^4, 16 threads. Across processes this host
# varies by up to 1.6x (trip 1), inside one by about 1%.
set -u; S=$SECONDS; B=build
grep -q cpu_r8_old_math src/qcd/dirac/cpu_simd.cpp || { echo "ab-switch.patch not applied"; exit 1; }
[ -f $B/build.ninja ] || cmake --preset cpu -DGLUON_CCACHE=OFF > $OUT/configure.log 2>&1
cmake --build $B --target gluon -j 16 > $OUT/build.log 2>&1 || { grep error $OUT/build.log | head; tail $OUT/configure.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $OUT/build.log
export OMP_NUM_THREADS=16
for k in ${ROUNDS:-1}; do
  IFS=, read -ra rows <<< "${ROWS:-wilson single,wilson half,clover single,clover half,staggered single,staggered half}"
  for row in "${rows[@]}"; do
    set -- $row
    f=$OUT/$1-$2-$k.json
    $B/bin/gluon bench dslash --backend cpu --operator $1 --precision $2 --recon 8 --lattice 48,48,48,48 \
      --iterations 20 --json --ab-env GLUON_R8_OLD_MATH=1,0,1,0 > $f 2> $OUT/err.txt
    python3 -c "
import json
d = json.load(open('$f')); r = d['ab']['runs']
old = [x['gflops'] for x in r if x['values'] == ['1']]; new = [x['gflops'] for x in r if x['values'] == ['0']]
print('%-26s %d  plain %6.1f GFLOP/s %.3f of copy (%.0f GB/s) | old %s new %s | new/old %.3f' % ('$1 $2', $k, d['gflops'], d['fraction_of_copy'], d['copy_gbs'],
  ' '.join('%.1f' % x for x in old), ' '.join('%.1f' % x for x in new), sum(new) / sum(old)))" | tee -a $OUT/summary.txt
  done
done
tar -czf $OUT/json.tgz -C $OUT --remove-files $(cd $OUT && ls *.json) 2>/dev/null
echo "done $((SECONDS-S)) s"
