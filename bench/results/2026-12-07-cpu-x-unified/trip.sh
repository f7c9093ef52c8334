#!/usr/bin/env bash
# On the GPU machine's Xeon host: the vector Wilson/clover kernels' x hops written once (one
# forward and one backward hop a task, their inputs taken by a two-source permute whose indices
# depend on the row's x parity) against the kernels of HEAD (each x parity its own pair of hops),
# inside each process: binaries built on the development VM (bench/cpu-ab-binaries.sh), which
# hold both kernels and take GLUON_EXP_X: 0 HEAD's, 2 the one-body x hops, 1 (half and single
# plain hops only; values wrong, speed only) HEAD's with the o = 0 branch taken for every task,
# to see what the smaller body alone does. First the Wilson SIMD tests under 0 and 2.
#   OUT=... bash bench/results/2026-12-07-cpu-x-unified/trip.sh   (carry build-ab)
set -u
S=$SECONDS
source bench/cpu-ab-binaries.sh
ab_tests wilson_simd unit_dirac_wilson_simd_test GLUON_EXP_X=0 GLUON_EXP_X=2
echo "tests at $((SECONDS - S)) s"
ROUNDS="1" CASES="wh12 wh8" ab_rounds GLUON_EXP_X 0,1,2,0,1,2
ROUNDS="1" CASES="${CASES2:-ch12 ch8 cs8 ws8 ws12 wd8 wd12}" ab_rounds GLUON_EXP_X 0,2,0,2
echo "done at $((SECONDS - S)) s"
