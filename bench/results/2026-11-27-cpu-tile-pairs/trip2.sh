#!/usr/bin/env bash
# Call 2 on the GPU machine's Xeon host (same warm machine as call 1): the tests of the final
# defaults (tile pairs where they measured faster), then this tree's gluon against the commit
# before the tile pairs (32e0f15: tile-pairs.patch reversed), separate processes interleaved
# (the order swapped every round), 48^4, 16 OpenMP threads: double and Wilson single r12/r8 run
# the same one-tile kernels in both (a check that the rework cost nothing there), the other rows
# the new default against the old kernel.
set -u
R=/tmp/tp2; rm -rf $R; mkdir -p $R
S=$SECONDS
D=bench/results/2026-11-27-cpu-tile-pairs
# The base: this tree with tile-pairs.patch reversed, in build-base/ (ignored, kept on the warm
# machine), built alongside this tree's build.
B=$PWD/build-base/tree
base() {
  [ -x $B/build/bin/gluon ] && return 0
  rm -rf $B && mkdir -p $B && cp -r CMakeLists.txt CMakePresets.json cmake include src apps tests .deps $B/ &&
  ( cd $B && patch -R -p1 < $OLDPWD/$D/tile-pairs.patch > $R/patch.log 2>&1 &&
    cmake --preset cpu -DGLUON_CCACHE=OFF > $R/base-configure.log 2>&1 && cmake --build build --target gluon -j8 > $R/base-build.log 2>&1 ) ||
    { echo BASE BUILD FAILED; tail -20 $R/patch.log $R/base-*.log; }
}
base &
BASE_PID=$!
# (A fresh machine: configure first. STAGE=build stops after the build and the tests, for a
# second call on the same warm machine to do the rest.)
[ -f build/build.ninja ] || cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1
cmake --build build --target gluon unit_dirac_wilson_simd_test -j16 > $R/build.log 2>&1 || { echo BUILD FAILED; grep error $R/build.log | head; tail $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
for env in "X=1" "GLUON_CPU_TILE_PAIRS=1" "GLUON_CPU_TILE_PAIRS=0" "GLUON_CPU_SIMD=avx2"; do
  env $env OMP_NUM_THREADS=4 build/bin/unit_dirac_wilson_simd_test > $R/test-${env%%=*}-${env##*=}.log 2>&1
  echo "wilson_simd tests with $env: rc $? ($(grep -E '^\[  (PASSED|FAILED)' $R/test-${env%%=*}-${env##*=}.log | tr '\n' ' '))"
done
echo "tests at $((SECONDS - S)) s"
wait $BASE_PID
echo "base built at $((SECONDS - S)) s"
if [ "${STAGE:-}" = build ]; then tar -czf $OUT/tp2-build.tgz -C $R .; exit 0; fi
export OMP_NUM_THREADS=16
one() {  # label binary args...
  local label=$1 bin=$2; shift 2
  $bin bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
print('%-14s %6.1f GFLOP/s %.3f of copy %.1f GB/s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs']))
" 2>&1 | tee -a $R/summary.txt
}
for k in 1 2; do
  for row in "wd12 wilson double 12" "ws12 wilson single 12" "ws8 wilson single 8" "cd12 clover double 12" \
             "ws18 wilson single 18" "wh12 wilson half 12" "cs12 clover single 12" "ch12 clover half 12"; do
    set -- $row
    if ((k % 2)); then order="new base"; else order="base new"; fi
    for b in $order; do
      bin=build/bin/gluon; [ $b = base ] && bin=$B/build/bin/gluon
      one $1-$b-$k $bin --operator $2 --precision $3 --recon $4
    done
  done
  echo "round $k at $((SECONDS - S)) s"
done
rm -f $R/build.log $R/base-build.log $R/base-configure.log $R/configure.log
tar -czf $OUT/tp2.tgz -C $R .
