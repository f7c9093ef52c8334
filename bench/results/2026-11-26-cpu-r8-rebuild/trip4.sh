#!/usr/bin/env bash
# Call 4: the final tree (staggered half unpaired, the sqrt helper) built on the Xeon host, and the
# vector-kernel tests run with the AVX-512 kernels and with GLUON_CPU_SIMD=avx2.
set -u
R=/tmp/r8t4; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test unit_dirac_staggered_test -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
grep -c "warning:" $R/build.log
export GLUON_TESTDATA=$PWD/.deps/testdata OMP_NUM_THREADS=16
build/bin/gluon info > $R/info.txt 2>&1
(cd build && ctest -R "Simd|simd|Staggered|staggered" -E "^gpu_" --output-on-failure > $R/ctest-simd.log 2>&1)
grep -E "tests passed|tests failed|Total Test" $R/ctest-simd.log
(cd build && GLUON_CPU_SIMD=avx2 ctest -R "Simd|simd|Staggered|staggered" -E "^gpu_" --output-on-failure > $R/ctest-simd-avx2.log 2>&1)
grep -E "tests passed|tests failed|Total Test" $R/ctest-simd-avx2.log
rm -f $R/build.log
tar -czf $OUT/trip4.tgz -C $R .
