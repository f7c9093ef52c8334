#!/usr/bin/env bash
# Call 5 on the Xeon host: the tree with the r8 halves fix (AVX2 double) and the huge-page record
# in bench dslash. Vector-kernel tests (AVX-512 and AVX2 forced), then Wilson single and double
# r12 at 48^4, plain against non-temporal stores, 4 and 2 interleaved pairs, each with the
# share of its memory in huge pages; staggered double r8 with the AVX2 build forced.
set -u
R=/tmp/nt5; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test unit_dirac_staggered_test -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
export GLUON_TESTDATA=$PWD/.deps/testdata OMP_NUM_THREADS=16
(cd build && ctest -R "Simd|simd|Staggered|staggered" -E "^gpu_" --output-on-failure > $R/ctest-simd.log 2>&1)
grep -E "tests passed|tests failed" $R/ctest-simd.log
(cd build && GLUON_CPU_SIMD=avx2 ctest -R "Simd|simd|Staggered|staggered" -E "^gpu_" --output-on-failure > $R/ctest-simd-avx2.log 2>&1)
grep -E "tests passed|tests failed" $R/ctest-simd-avx2.log
echo "tested at $((SECONDS - S)) s"
one() {  # label env... -- args
  local label=$1; shift
  env "$@" build/bin/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json $ARGS > $R/$label.json 2>&1
  python3 -c "
import json, sys
d = json.load(open('$R/$label.json'))
m = d.get('host_memory', {})
print('%-28s %8.1f GFLOP/s  %.3f of copy (%.1f GB/s nt, %.1f plain)  huge pages %.0f of %.0f MiB' % ('$label', d['gflops'],
      d['fraction_of_copy'], d['copy']['copy_gbs'], d['copy']['kernel_copy_gbs'], m.get('huge_pages_mib', -1), m.get('anonymous_mib', -1)))
" | tee -a $R/summary.txt
}
ARGS="--operator wilson --precision single --recon 12"
for k in 1 2 3 4; do one ws12-plain-$k GLUON_CPU_STREAM_STORES=0; one ws12-stream-$k GLUON_CPU_STREAM_STORES=1; done
ARGS="--operator wilson --precision double --recon 12"
for k in 1 2; do one wd12-plain-$k GLUON_CPU_STREAM_STORES=0; one wd12-stream-$k GLUON_CPU_STREAM_STORES=1; done
ARGS="--operator staggered --precision double --recon 8"
one sd8-avx2 GLUON_CPU_SIMD=avx2; one sd8-avx512 GLUON_CPU_SIMD=avx512
ARGS="--operator staggered --precision double --recon 12"
one sd12-avx2 GLUON_CPU_SIMD=avx2
echo "done at $((SECONDS - S)) s"
tar -czf $OUT/trip5.tgz -C $R .
