#!/usr/bin/env bash
# Call 5: the cuda preset at HEAD (half stores commit), `ctest -L gpu`, the vector-kernel unit tests
# on the Xeon host (AVX-512 and the AVX2 build forced), then gluon without the half-stores and r12-rebuild commits
# (patch -R of .deps/store.patch, their combined diff) for the A/B of trip6.sh.
set -u
R=/tmp/hl5; rm -rf $R; mkdir -p $R
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 GLUON_TESTDATA=$PWD/.deps/testdata
( cmake --preset cuda -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build-cuda -j16 > $R/build1.log 2>&1 && cp build-cuda/bin/gluon /tmp/gluon-store ) ||
  { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
build-cuda/bin/gluon info > $R/info.txt 2>&1
(cd build-cuda && GLUON_TUNE_CACHE=$R/tunecache.json ctest -L gpu --output-on-failure > $R/ctest-gpu.log 2>&1)
grep -E "tests passed|tests failed|Total Test" $R/ctest-gpu.log
(cd build-cuda && OMP_NUM_THREADS=16 ctest -R "Simd|simd|Staggered|staggered" -E "^gpu_" --output-on-failure > $R/ctest-simd.log 2>&1)
grep -E "tests passed|tests failed|Total Test" $R/ctest-simd.log
echo "tests done at $((SECONDS - S)) s"
( patch -R -p1 < .deps/store.patch > $R/patch.log 2>&1 &&
  cmake --build build-cuda --target gluon -j16 > $R/build2.log 2>&1 && cp build-cuda/bin/gluon /tmp/gluon-fma &&
  patch -p1 < .deps/store.patch >> $R/patch.log 2>&1 ) || { echo BASE BUILD FAILED; tail -30 $R/*.log; }
echo "built base at $((SECONDS - S)) s"
tar -czf $OUT/trip5.tgz -C $R .
