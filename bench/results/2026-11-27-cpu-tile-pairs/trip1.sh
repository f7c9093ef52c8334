#!/usr/bin/env bash
# Call 1 on the GPU machine's Xeon host (AVX-512): the Wilson/clover vector kernels with two tiles
# a task in single and half (GLUON_CPU_TILE_PAIRS=1, 16 floats a zmm register) against one tile
# a task (=0, 8 floats a ymm register), inside each process (`--ab-env`), for Wilson and clover
# in single and half with r12, r18 and r8 links, two processes a row, 48^4, 16 OpenMP threads.
# Each process's plain measurement runs the default (auto: pairs with the avx512 build). First
# the tests of the changed kernels, AVX-512 build: by default (pairs), forced on, off, and AVX2.
set -u
R=/tmp/tp1; rm -rf $R; mkdir -p $R
S=$SECONDS
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|L2|L3|Flags" | cut -c1-400; } >$R/machine.txt 2>&1
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test unit_bench_cli_test -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; grep -E "error" $R/build.log | head -30; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
for env in "X=1" "GLUON_CPU_TILE_PAIRS=1" "GLUON_CPU_TILE_PAIRS=0" "GLUON_CPU_SIMD=avx2"; do
  env $env OMP_NUM_THREADS=4 build/bin/unit_dirac_wilson_simd_test > $R/test-${env%%=*}-${env##*=}.log 2>&1
  echo "wilson_simd tests with $env: rc $? ($(grep -E '^\[  (PASSED|FAILED)' $R/test-${env%%=*}-${env##*=}.log | tr '\n' ' '))"
done
build/bin/unit_bench_cli_test > $R/test-bench-cli.log 2>&1; echo "bench_cli tests rc $?"
echo "tests at $((SECONDS - S)) s"
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
for k in 1 2; do
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
rm -f $R/build.log $R/configure.log
tar -czf $OUT/tp1.tgz -C $R .
