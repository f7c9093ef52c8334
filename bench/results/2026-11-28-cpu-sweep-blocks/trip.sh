#!/usr/bin/env bash
# On the GPU machine's Xeon host (AVX-512, 16 cores, 2 MiB L2 each): the Wilson/clover CPU dslash
# with each thread's sweep over t in blocks of y-rows (GLUON_CPU_BLOCK_ROWS) against the whole
# sweep (0, the order before), inside each process (gluon bench dslash --ab-env), 48^4, 16 OpenMP
# threads. The binaries were built on the 2-core VM (g++ 12) and travel xz-compressed in build-ab/.
#   STAGE=test OUT=<dir> bash bench/results/2026-11-28-cpu-sweep-blocks/trip.sh   the kernel tests
#   ROWS=... ROUNDS="1 2" OUT=<dir> bash ...                                       the A/B
set -u
S=$SECONDS
source bench/cpu-ab-binaries.sh  # build-ab/ unpacked into $B (/tmp/ab); $OUT/machine.txt
if [ "${STAGE:-ab}" = test ]; then
  ab_tests wilson unit_dirac_wilson_simd_test "X=1" "GLUON_CPU_TILE_PAIRS=1" "GLUON_CPU_TILE_PAIRS=0"
  echo "tests at $((SECONDS - S)) s"
  exit 0
fi
ROWS=${ROWS:-0,auto,4,8,16}
ab_rounds GLUON_CPU_BLOCK_ROWS "$ROWS"
