#!/usr/bin/env bash
# Call 1 on the GPU machine's Xeon host: how the Wilson/clover vector kernel prefetches its links
# (GLUON_CPU_LINK_PREFETCH l1 = before, nta, off), compared inside each process with
# `gluon bench dslash --ab-env` at 48^4, 16 OpenMP threads; three processes a row. First the
# vector kernel tests (AVX-512 here), which check that every mode writes the same bytes.
set -u
R=/tmp/lp1; rm -rf $R; mkdir -p $R
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
one() {  # label args...
  local label=$1; shift
  build/bin/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
runs = '  '.join('%s %6.1f (%.3f)' % (r['value'], r['gflops'], r['fraction_of_copy']) for r in d['ab']['runs'])
print('%-10s plain %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs))
" 2>&1 | tee -a $R/summary.txt
}
AB="--ab-env GLUON_CPU_LINK_PREFETCH=l1,nta,off"
for k in 1 2 3; do
  one ws12-$k --operator wilson --precision single --recon 12 $AB
  one wd12-$k --operator wilson --precision double --recon 12 $AB
  one cs12-$k --operator clover --precision single --recon 12 $AB
  one wh12-$k --operator wilson --precision half --recon 12 $AB
  echo "round $k at $((SECONDS - S)) s"
done
one ws12-st --operator wilson --precision single --recon 12 --ab-env GLUON_CPU_STREAM_STORES=0,1
one wd12-st --operator wilson --precision double --recon 12 --ab-env GLUON_CPU_STREAM_STORES=0,1
echo "done at $((SECONDS - S)) s"
rm -f $R/build.log $R/configure.log
tar -czf $OUT/lp1.tgz -C $R .
