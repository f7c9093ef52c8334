#!/usr/bin/env bash
# On the GPU machine's Xeon host (AVX-512, 16 cores): the CPU dslash kernels compiled for
# x86-64-v4 as built (a, generic tuning) against the same source compiled with other GCC options,
# inside each process (gluon bench dslash --ab-env GLUON_CPU_TUNE_VARIANT=...), 48^4, 16 OpenMP
# threads. Trip 1: s = -mtune=sapphirerapids, e = that and -fschedule-insns -fsched-pressure
# (Wilson/clover kernels only). Trip 2: p = -fschedule-insns -fsched-pressure alone, and e, the
# staggered kernels too. Binaries built on the 2-core VM (g++ 12), carried xz-compressed in build-ab/.
#   STAGE=test OUT=<dir> bash bench/results/2026-11-28-cpu-mtune/trip.sh   the kernel tests
#   VARS=a,p,e ROUNDS="1 2" OUT=<dir> bash ...                                       the A/B
set -u
S=$SECONDS
source bench/cpu-ab-binaries.sh  # build-ab/ unpacked into $B (/tmp/ab); $OUT/machine.txt
if [ "${STAGE:-ab}" = test ]; then
  ab_tests wilson unit_dirac_wilson_simd_test "GLUON_CPU_TUNE_VARIANT=p" "GLUON_CPU_TUNE_VARIANT=e"
  ab_tests staggered unit_dirac_staggered_test "GLUON_CPU_TUNE_VARIANT=p" "GLUON_CPU_TUNE_VARIANT=e"
  echo "tests at $((SECONDS - S)) s"
  exit 0
fi
VARS=${VARS:-a,p,e}
CASES=${CASES:-wd12 cd12 ws12 cs12 wh12 ch12 ws8 cs8 wd8 wh8 sd12 ss8 sh8} ab_rounds GLUON_CPU_TUNE_VARIANT "$VARS"
