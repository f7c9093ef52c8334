#!/usr/bin/env bash
# Call 5 (a fresh machine): with tile pairs on, does another prefetch choice beat the default
# (ahead)? In-process A/B of GLUON_CPU_PREFETCH=ahead,all,spinors,none for the rows that now run
# pairs and are still short of 60% of the copy or near it (Wilson and clover half r12, Wilson half
# r8, clover single r12), two processes a row, 48^4, 16 OpenMP threads.
set -u
R=/tmp/tp4; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; grep -E "error" $R/build.log | head -30; exit 1; }
echo "built at $((SECONDS - S)) s"
export OMP_NUM_THREADS=16
one() {  # label args...
  local label=$1; shift
  build/bin/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
r = d['ab']['runs']
runs = '  '.join('%s %6.1f (%.3f)' % ('/'.join(x['values']), x['gflops'], x['fraction_of_copy']) for x in r)
print('%-8s default %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s | best/ahead %.3f' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs, max(x['gflops'] for x in r) / r[0]['gflops']))
" 2>&1 | tee -a $R/summary.txt
}
AB="--ab-env GLUON_CPU_PREFETCH=ahead,all,spinors,none"
for k in 1 2; do
  for row in "wh12 wilson half 12" "ch12 clover half 12" "wh8 wilson half 8" "cs12 clover single 12"; do
    set -- $row
    one $1-$k --operator $2 --precision $3 --recon $4 $AB
  done
  echo "round $k at $((SECONDS - S)) s"
done
rm -f $R/build.log $R/configure.log
tar -czf $OUT/tp4.tgz -C $R .
