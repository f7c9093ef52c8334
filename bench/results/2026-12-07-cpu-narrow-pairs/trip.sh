#!/usr/bin/env bash
# On the GPU machine's Xeon host (AVX-512, 16 cores): the vector CPU kernels where X/2 = 4 mod 8
# (half-tile tasks, the x86-64-v3 build), single precision, with two half tiles a task
# (GLUON_CPU_TILE_PAIRS=1: a half tile and its partner T/2 slices on, 8 floats a vector) against
# one (=0, 4 floats), inside each process (`--ab-env`), 16 OpenMP threads: naive staggered r18,
# r12, r8, improved staggered (fat r18, long r18 and r12), Wilson and clover r12, at 24^3 x 48
# (about the L3) and 40^3 x 48 (several times it). First the staggered tests: the default, pairs
# off, and the AVX2 build. Everything lands in $OUT/np.tgz; summary.txt is the table.
set -u
R=/tmp/np; rm -rf $R; mkdir -p $R
S=$SECONDS
DEADLINE=${DEADLINE:-570}
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|L2|L3" | cut -c1-200; } >$R/machine.txt 2>&1
git rev-parse HEAD > $R/head.txt; git status --short >> $R/head.txt
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_staggered_test -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; grep -E "error" $R/build.log | head -30; tail -30 $R/*.log; tar -czf $OUT/np.tgz -C $R .; exit 1; }
echo "built at $((SECONDS - S)) s"
for env in "X=1" "GLUON_CPU_TILE_PAIRS=0" "GLUON_CPU_SIMD=avx2"; do
  env $env OMP_NUM_THREADS=4 build/bin/unit_dirac_staggered_test > $R/test-${env%%=*}-${env##*=}.log 2>&1
  echo "staggered tests with $env: rc $? ($(grep -E '^\[  (PASSED|FAILED)' $R/test-${env%%=*}-${env##*=}.log | tr '\n' ' '))"
done
echo "tests at $((SECONDS - S)) s"
export OMP_NUM_THREADS=16
one() {  # label lattice args...
  local label=$1 lat=$2; shift 2
  (( SECONDS - S > DEADLINE - 25 )) && { echo "skipped $label (deadline)"; return; }
  timeout 60 build/bin/gluon bench dslash --backend cpu --lattice $lat --iterations 20 --json "$@" \
    --ab-env GLUON_CPU_TILE_PAIRS=0,1,0,1 > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
r = d['ab']['runs']
runs = '  '.join('%s %6.1f (%.3f)' % ('/'.join(x['values']), x['gflops'], x['fraction_of_copy']) for x in r)
print('%-14s default %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s | pairs/one %.3f %.3f' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs, r[1]['gflops'] / r[0]['gflops'], r[3]['gflops'] / r[2]['gflops']))
" 2>&1 | tee -a $R/summary.txt
}
for lat in 24,24,24,48 40,40,40,48; do
  L=${lat%%,*}
  one ns18-$L $lat --operator staggered --precision single --recon 18
  one ns12-$L $lat --operator staggered --precision single --recon 12
  one ns8-$L $lat --operator staggered --precision single --recon 8
  one is18-$L $lat --operator improved-staggered --precision single --recon 18
  one is12-$L $lat --operator improved-staggered --precision single --recon 12
  one ws12-$L $lat --operator wilson --precision single --recon 12
  one cs12-$L $lat --operator clover --precision single --recon 12
  echo "lattice $lat at $((SECONDS - S)) s"
done
echo "done at $((SECONDS - S)) s"
rm -f $R/build.log $R/configure.log
tar -czf $OUT/np.tgz -C $R .
