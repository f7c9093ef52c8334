#!/usr/bin/env bash
# Call 1 on the Xeon host: build the CPU preset with the r8 rebuild changes (HEAD), run the vector
# kernel tests (AVX-512: the paired rebuild; and the AVX2 build, GLUON_CPU_SIMD=avx2), then build
# two more binaries for the A/B of trip2.sh: without the pairing (.deps/r8-nopair.patch applied:
# the cheaper rebuild alone) and the commit before (patch -R of .deps/r8-rebuild.patch).
set -u
R=/tmp/r8t1; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test unit_dirac_staggered_test -j16 > $R/build1.log 2>&1 &&
  cp build/bin/gluon /tmp/gluon-new ) || { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built new at $((SECONDS - S)) s"
export GLUON_TESTDATA=$PWD/.deps/testdata OMP_NUM_THREADS=16
build/bin/gluon info > $R/info.txt 2>&1
(cd build && ctest -R "Simd|simd|Staggered|staggered" -E "^gpu_" --output-on-failure > $R/ctest-simd.log 2>&1)
grep -E "tests passed|tests failed|Total Test" $R/ctest-simd.log
(cd build && GLUON_CPU_SIMD=avx2 ctest -R "Simd|simd|Staggered|staggered" -E "^gpu_" --output-on-failure > $R/ctest-simd-avx2.log 2>&1)
grep -E "tests passed|tests failed|Total Test" $R/ctest-simd-avx2.log
echo "tested at $((SECONDS - S)) s"
( patch -p1 < .deps/r8-nopair.patch > $R/patch.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build2.log 2>&1 && cp build/bin/gluon /tmp/gluon-nopair &&
  patch -R -p1 < .deps/r8-nopair.patch >> $R/patch.log 2>&1 ) || { echo NOPAIR BUILD FAILED; tail -30 $R/*.log; }
echo "built nopair at $((SECONDS - S)) s"
( patch -R -p1 < .deps/r8-rebuild.patch >> $R/patch.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build3.log 2>&1 && cp build/bin/gluon /tmp/gluon-base &&
  patch -p1 < .deps/r8-rebuild.patch >> $R/patch.log 2>&1 ) || { echo BASE BUILD FAILED; tail -30 $R/*.log; }
echo "built base at $((SECONDS - S)) s"
ls -la /tmp/gluon-* > $R/binaries.txt
tar -czf $OUT/trip1.tgz -C $R .
