#!/usr/bin/env bash
# Call 1 on the GPU machine's 16-core Xeon host: build the CPU preset's gluon and the vector-kernel
# tests with this commit, run the tests (AVX-512 kernels), then build gluon again without the
# commit (patch -R of .deps/half-loads.patch) for the A/B of trip2.sh.
set -u
R=/tmp/hl; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test unit_dirac_staggered_test -j16 > $R/build1.log 2>&1 &&
  cp build/bin/gluon /tmp/gluon-new ) || { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built new at $((SECONDS - S)) s"
export GLUON_TESTDATA=$PWD/.deps/testdata OMP_NUM_THREADS=16
(cd build && ctest -R "simd|staggered" --output-on-failure > $R/ctest-simd.log 2>&1); tail -5 $R/ctest-simd.log
build/bin/gluon info > $R/info.txt 2>&1
( patch -R -p1 < .deps/half-loads.patch > $R/patch.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build2.log 2>&1 && cp build/bin/gluon /tmp/gluon-base &&
  patch -p1 < .deps/half-loads.patch >> $R/patch.log 2>&1 ) || { echo BASE BUILD FAILED; tail -30 $R/*.log; }
echo "built base at $((SECONDS - S)) s"
lscpu > $R/lscpu.txt
tar -czf $OUT/trip1.tgz -C $R .
