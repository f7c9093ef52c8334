#!/usr/bin/env bash
# The GPU machine's Xeon host: the single-precision r8 rebuild with the half-angle sincos and the
# hardware rsqrt/rcp estimates (estimates.patch) against the commit before, two binaries built in
# the same call. STAGE picks the part (the machine stays warm between calls):
#   build  configure the cpu preset, build gluon and the two SIMD test executables, run them
#   base   the AVX-512 single and half Wilson and staggered kernel objects again from copies of
#          src/qcd/dirac with estimates.patch reversed, put into a copy of libgluon_qcd.a, and
#          gluon linked again from it: build/bin/gluon-base
#   bench  bench/dslash-cpu.sh, the two binaries interleaved, RUNS rounds, 48^4, 16 threads
set -u; S=$SECONDS
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STAGE=${STAGE:-all}
B=build
if [ "$STAGE" = build ] || [ "$STAGE" = all ]; then
  { nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|L2|L3"; } > $OUT/machine.txt 2>&1
  { cmake --preset cpu -DGLUON_CCACHE=OFF > $OUT/configure.log 2>&1 &&
    cmake --build $B --target gluon unit_dirac_wilson_simd_test unit_dirac_staggered_test -j 16 > $OUT/build.log 2>&1; } ||
    { grep -E "error" $OUT/build.log | head -30; tail $OUT/configure.log; exit 1; }
  echo "built $((SECONDS-S)) s"; rm -f $OUT/build.log $OUT/configure.log
  for t in dirac_wilson_simd dirac_staggered; do
    $B/bin/unit_${t}_test > $OUT/test-$t.log 2>&1
    echo "$t rc $? ($(grep -E '^\[  (PASSED|FAILED)' $OUT/test-$t.log | tr '\n' ' '))"
  done
  grep -A3 "SingleR8HopIsAsAccurate" $OUT/test-dirac_wilson_simd.log | head -4
fi
if [ "$STAGE" = base ] || [ "$STAGE" = all ]; then
  OV=$PWD/$B/base-src; rm -rf $OV $B/base-obj; mkdir -p $OV $B/base-obj
  cp -r src/qcd/dirac $OV/
  (cd $OV && patch -s -R -p3 < "$HERE/estimates.patch") || { echo "patch failed"; exit 1; }
  grep -c rsqrt_estimate $OV/dirac/cpu_simd_vector.h
  for f in wilson_simd_single_avx512 wilson_simd_half_avx512 staggered_simd_single_avx512 staggered_simd_half_avx512; do
    cmd=$(python3 -c "
import json
for e in json.load(open('$B/compile_commands.json')):
  if e['file'].endswith('/$f.cpp'): print(e['command'])")
    cmd=${cmd/$PWD\/src\/qcd\/dirac\/$f.cpp/$OV\/dirac\/$f.cpp}
    cmd=${cmd/-o src\/CMakeFiles\/gluon_qcd.dir\/qcd\/dirac\/$f.cpp.o/-o base-obj\/$f.cpp.o}
    (cd $B && eval "$cmd") > $OUT/base-$f.log 2>&1 &
  done
  wait; echo "base objects $((SECONDS-S)) s"; ls $B/base-obj
  cp $B/src/libgluon_qcd.a $B/base-obj/libgluon_qcd.a && ar r $B/base-obj/libgluon_qcd.a $B/base-obj/*.o || exit 1
  link=$(cd $B && ninja -t commands bin/gluon | tail -1)
  link=${link/ src\/libgluon_qcd.a / base-obj\/libgluon_qcd.a }
  link=${link/-o bin\/gluon /-o bin\/gluon-base }
  (cd $B && eval "$link") || exit 1
  cmp -s $B/bin/gluon $B/bin/gluon-base && echo "BASE IDENTICAL TO NEW"
  echo "base linked $((SECONDS-S)) s"
fi
if [ "$STAGE" = bench ] || [ "$STAGE" = all ]; then
  OMP_NUM_THREADS=16 BINS="base=$B/bin/gluon-base new=$B/bin/gluon" OUT=$OUT/bench RUNS=${RUNS:-2} \
    OPS="${OPS:-wilson clover staggered}" PRECS="${PRECS:-single half}" RECONS=8 LATTICES=48,48,48,48 \
    ITER=${ITER:-20} WAIT=5 bash bench/dslash-cpu.sh > /dev/null
  cat $OUT/bench/summary.txt
  echo "bench $((SECONDS-S)) s"
fi
echo "done $((SECONDS-S)) s"
