#!/usr/bin/env bash
# Call 1 on the GPU machine's Xeon host (AVX-512): how far ahead and into which cache level the
# Wilson/clover vector kernels prefetch. Inside each process (`--ab-env`), six settings of
# (GLUON_CPU_PREFETCH, GLUON_CPU_PREFETCH_DISTANCE, GLUON_CPU_PREFETCH_LEVEL), the default
# (ahead, 2, l1) first, for Wilson and clover r12 in double, single and half and three r8 rows,
# 48^4, 16 OpenMP threads, two processes a row. Then compute against memory: Wilson half and
# single r12 at 16^3 x 32 (every field in the 300 MiB L3) and at 48^4, two processes each.
# Processes that would start after LIMIT seconds (540) are skipped, to end within a call.
set -u
R=/tmp/pl1; rm -rf $R; mkdir -p $R
S=$SECONDS
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|L2|L3|MHz" | cut -c1-200; } >$R/machine.txt 2>&1
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; grep -E "error" $R/build.log | head -30; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
GLUON_CPU_PREFETCH_LEVEL=l2 GLUON_CPU_PREFETCH_DISTANCE=4 OMP_NUM_THREADS=4 build/bin/unit_dirac_wilson_simd_test > $R/test-l2.log 2>&1
echo "wilson_simd tests with l2, 4 ahead: rc $? ($(grep -E '^\[  (PASSED|FAILED)' $R/test-l2.log | tr '\n' ' '))"
export OMP_NUM_THREADS=16
one() {  # label lattice iterations args...
  local label=$1 lat=$2 it=$3; shift 3
  if (( SECONDS - S > ${LIMIT:-540} )); then echo "$label skipped (time)"; return; fi
  build/bin/gluon bench dslash --backend cpu --lattice $lat --iterations $it --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
r = d.get('ab', {}).get('runs', [])
runs = '  '.join('%s %6.1f (%.3f) %.3f' % ('/'.join(x['values']), x['gflops'], x['fraction_of_copy'], x['gflops'] / r[0]['gflops']) for x in r)
print('%-12s %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs))
" 2>&1 | tee -a $R/summary.txt
}
AB="--ab-env GLUON_CPU_PREFETCH=ahead,ahead,ahead,all,all,spinors --ab-env GLUON_CPU_PREFETCH_DISTANCE=2,2,4,4,8,4 --ab-env GLUON_CPU_PREFETCH_LEVEL=l1,l2,l2,l2,l2,l2"
for k in 1 2; do
  for row in "wilson half 12" "clover half 12" "wilson single 12" "clover single 12" "wilson double 12" "clover double 12" "wilson half 8" "wilson single 8" "clover single 8"; do
    set -- $row
    one ${1:0:1}${2:0:1}$3-$k 48,48,48,48 20 --operator $1 --precision $2 --recon $3 $AB
  done
  echo "round $k at $((SECONDS - S)) s"
done
for k in 1 2; do
  for p in half single; do
    one w${p:0:1}12-small-$k 16,16,16,32 200 --operator wilson --precision $p --recon 12
    one w${p:0:1}12-big-$k 48,48,48,48 40 --operator wilson --precision $p --recon 12
  done
done
echo "done at $((SECONDS - S)) s"
rm -f $R/build.log $R/configure.log
tar -czf $OUT/pl1.tgz -C $R .
