#!/usr/bin/env bash
# Call 2 on the GPU machine's Xeon host (trip 1: the links' prefetch off was faster in 10 of 12
# in-process comparisons, non-temporal link prefetch twice as slow). What the Wilson/clover vector
# kernel prefetches (GLUON_CPU_PREFETCH all = before, spinors, ahead, none), and then streamed
# output on top of `spinors`, each compared inside one process (`gluon bench dslash --ab-env`) at
# 48^4, 16 OpenMP threads. First the vector kernel tests (AVX-512 here).
set -u
R=/tmp/lp2; rm -rf $R; mkdir -p $R
S=$SECONDS
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|L2|L3"; } >$R/machine.txt 2>&1
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test unit_bench_cli_test -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
build/bin/unit_dirac_wilson_simd_test > $R/test-simd.log 2>&1; echo "simd tests rc $? ($(grep -E '^\[  (PASSED|FAILED)' $R/test-simd.log | tr '\n' ' '))"
build/bin/unit_bench_cli_test --gtest_filter='BenchCli.DslashAb*:BenchCli.Flag*' > $R/test-bench.log 2>&1; echo "bench tests rc $?"
echo "tests at $((SECONDS - S)) s"
export OMP_NUM_THREADS=16
one() {  # label env-assignment args...
  local label=$1 envs=$2; shift 2
  env $envs build/bin/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
runs = '  '.join('%s %6.1f (%.3f)' % (r['value'], r['gflops'], r['fraction_of_copy']) for r in d['ab']['runs'])
print('%-12s plain %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs))
" 2>&1 | tee -a $R/summary.txt
}
rows=("ws12 wilson single" "wd12 wilson double" "cs12 clover single" "wh12 wilson half")
for k in 1 2 3; do
  for row in "${rows[@]}"; do
    set -- $row
    one $1-pf-$k GLUON_CPU_STREAM_STORES=0 --operator $2 --precision $3 --recon 12 --ab-env GLUON_CPU_PREFETCH=all,spinors,ahead,none
  done
  echo "prefetch round $k at $((SECONDS - S)) s"
done
for k in 1 2; do
  for row in "${rows[@]}"; do
    set -- $row
    one $1-st-$k GLUON_CPU_PREFETCH=spinors --operator $2 --precision $3 --recon 12 --ab-env GLUON_CPU_STREAM_STORES=0,1
  done
  echo "stream round $k at $((SECONDS - S)) s"
done
echo "done at $((SECONDS - S)) s"
rm -f $R/build.log $R/configure.log
tar -czf $OUT/lp2.tgz -C $R .
