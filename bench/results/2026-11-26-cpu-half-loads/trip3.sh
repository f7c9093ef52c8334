#!/usr/bin/env bash
# Call 3 on the Xeon host: build the CPU preset with the FMA commit (HEAD), run the vector-kernel
# tests (AVX-512, and the AVX2 build forced), then build gluon without the FMA commit (patch -R of
# .deps/fma.patch: the half-loads commit alone) for the A/B of trip4.sh.
set -u
R=/tmp/hl3; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test unit_dirac_staggered_test -j16 > $R/build1.log 2>&1 &&
  cp build/bin/gluon /tmp/gluon-fma ) || { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built fma at $((SECONDS - S)) s"
export GLUON_TESTDATA=$PWD/.deps/testdata OMP_NUM_THREADS=16
(cd build && ctest -R "Simd|simd|Staggered|staggered" -E "^gpu_" --output-on-failure > $R/ctest-simd.log 2>&1)
grep -E "tests passed|tests failed|Total Test" $R/ctest-simd.log
build/bin/gluon info > $R/info.txt 2>&1
( patch -R -p1 < .deps/fma.patch > $R/patch.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build2.log 2>&1 && cp build/bin/gluon /tmp/gluon-loads &&
  patch -p1 < .deps/fma.patch >> $R/patch.log 2>&1 ) || { echo LOADS BUILD FAILED; tail -30 $R/*.log; }
echo "built loads at $((SECONDS - S)) s"
tar -czf $OUT/trip3.tgz -C $R .
