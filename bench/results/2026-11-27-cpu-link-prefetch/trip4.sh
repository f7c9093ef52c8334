#!/usr/bin/env bash
# Call 4 on the GPU machine's Xeon host: the new defaults (GLUON_CPU_PREFETCH=ahead, streamed
# output above the last-level cache) against the old ones (all, plain stores), inside each process
# (`--ab-env` repeated: the two settings), for every Wilson/clover row at r12 and r8 in double,
# single and half, two processes a row, 48^4, 16 OpenMP threads. Each process's plain measurement
# runs the new defaults (the table's figures). First the tests of the changed code (AVX-512 here).
set -u
R=/tmp/lp4; rm -rf $R; mkdir -p $R
S=$SECONDS
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|L2|L3"; } >$R/machine.txt 2>&1
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test unit_dirac_staggered_test unit_bench_cli_test -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
for t in dirac_wilson_simd dirac_staggered bench_cli; do
  build/bin/unit_${t}_test > $R/test-$t.log 2>&1; echo "$t tests rc $? ($(grep -E '^\[  (PASSED|FAILED)' $R/test-$t.log | tr '\n' ' '))"
done
echo "tests at $((SECONDS - S)) s"
export OMP_NUM_THREADS=16
one() {  # label args...
  local label=$1; shift
  build/bin/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
runs = '  '.join('%s %6.1f (%.3f)' % ('/'.join(r['values']), r['gflops'], r['fraction_of_copy']) for r in d['ab']['runs'])
print('%-8s new defaults %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs))
" 2>&1 | tee -a $R/summary.txt
}
AB="--ab-env GLUON_CPU_PREFETCH=all,ahead --ab-env GLUON_CPU_STREAM_STORES=0,auto"
for k in 1 2; do
  for op in wilson clover; do
    for p in single double half; do
      for r in 12 8; do
        one ${op:0:1}${p:0:1}$r-$k --operator $op --precision $p --recon $r $AB
      done
    done
  done
  echo "round $k at $((SECONDS - S)) s"
done
echo "done at $((SECONDS - S)) s"
rm -f $R/build.log $R/configure.log
tar -czf $OUT/lp4.tgz -C $R .
