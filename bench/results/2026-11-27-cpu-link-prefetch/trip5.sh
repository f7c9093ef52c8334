#!/usr/bin/env bash
# Call 5 on the GPU machine's Xeon host: the staggered vector kernels take GLUON_CPU_PREFETCH too
# (their default stays all until measured): all against ahead (input only at t + d) and spinors
# (no link prefetch), inside each process, for naive and improved staggered in every precision
# at r12 and naive r8 single/half; then two more processes for the Wilson/clover single and
# double r12 rows with the new defaults against the old (as trip 4). 48^4, 16 OpenMP threads.
set -u
R=/tmp/lp5; rm -rf $R; mkdir -p $R
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
print('%-8s plain %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs))
" 2>&1 | tee -a $R/summary.txt
}
for k in 1 2; do
  for row in "ss12 staggered single 12" "sd12 staggered double 12" "sh12 staggered half 12" "is12 improved-staggered single 12" \
             "id12 improved-staggered double 12" "ih12 improved-staggered half 12" "ss8 staggered single 8" "sh8 staggered half 8"; do
    set -- $row
    one $1-$k --operator $2 --precision $3 --recon $4 --ab-env GLUON_CPU_PREFETCH=all,ahead,spinors
  done
  echo "staggered round $k at $((SECONDS - S)) s"
done
AB="--ab-env GLUON_CPU_PREFETCH=all,ahead --ab-env GLUON_CPU_STREAM_STORES=0,auto"
for k in 3 4; do
  for row in "ws12 wilson single" "wd12 wilson double" "cs12 clover single" "cd12 clover double"; do
    set -- $row
    one $1-$k --operator $2 --precision $3 --recon 12 $AB
  done
  echo "wilson round $k at $((SECONDS - S)) s"
done
echo "done at $((SECONDS - S)) s"
rm -f $R/build.log $R/configure.log
find $R -name "*.err" -empty -delete
tar -czf $OUT/lp5.tgz -C $R .
