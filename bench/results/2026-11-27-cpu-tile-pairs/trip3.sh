#!/usr/bin/env bash
# Call 4 on the same warm machine as calls 2-3 (this tree built there by trip2.sh): the in-process
# A/B of call 1 (GLUON_CPU_TILE_PAIRS=0,1 inside each process) once more, every row one process,
# with the final tree (whose default is one tile for Wilson single r12/r8).
set -u
R=/tmp/tp3; rm -rf $R; mkdir -p $R
S=$SECONDS
export OMP_NUM_THREADS=16
one() {  # label args...
  local label=$1; shift
  build/bin/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
runs = '  '.join('%s %6.1f (%.3f)' % ('/'.join(r['values']), r['gflops'], r['fraction_of_copy']) for r in d['ab']['runs'])
r = d['ab']['runs']
print('%-8s default %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s | pairs/one %.3f' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs, r[1]['gflops'] / r[0]['gflops']))
" 2>&1 | tee -a $R/summary.txt
}
AB="--ab-env GLUON_CPU_TILE_PAIRS=0,1"
for k in 3; do
  for op in wilson clover; do
    for p in single half; do
      for r in 12 18 8; do
        one ${op:0:1}${p:0:1}$r-$k --operator $op --precision $p --recon $r $AB
      done
    done
  done
  echo "round $k at $((SECONDS - S)) s"
done
echo "done at $((SECONDS - S)) s"
tar -czf $OUT/tp3.tgz -C $R .
