#!/usr/bin/env bash
# Call 7 (same warm machine as trip 6, binary already built): A/A checks of the in-process method.
# Trip 6 timed naive staggered single r12 with GLUON_CPU_PREFETCH unset against =all, the same
# kernel there, and read 1.14: how far apart do identical settings read inside one process? Each
# row with the settings ahead, ahead, all, all (Wilson single r12) and all, all, ahead, ahead
# (naive staggered single r12), 40 rounds, two processes each. 48^4, 16 OpenMP threads.
set -u
R=/tmp/lp7; rm -rf $R; mkdir -p $R
S=$SECONDS
cmake --build build --target gluon -j16 > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
export OMP_NUM_THREADS=16
one() {  # label args...
  local label=$1; shift
  build/bin/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 40 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
runs = '  '.join('%s %6.1f (%.3f)' % ('/'.join(r['values']), r['gflops'], r['fraction_of_copy']) for r in d['ab']['runs'])
print('%-8s plain %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs))
" 2>&1 | tee -a $R/summary.txt
}
for k in 1 2; do
  one ws12-aa-$k --operator wilson --precision single --recon 12 --ab-env GLUON_CPU_PREFETCH=ahead,ahead,all,all
  one ss12-aa-$k --operator staggered --precision single --recon 12 --ab-env GLUON_CPU_PREFETCH=all,all,ahead,ahead
done
echo "done at $((SECONDS - S)) s"
rm -f $R/build.log
find $R -name "*.err" -empty -delete
tar -czf $OUT/lp7.tgz -C $R .
