#!/usr/bin/env bash
# Call 2 on the Xeon host (a fresh machine: builds again): a second interleaved run of trip1.sh's
# Wilson and clover cases (single runs vary), then naive staggered (r12, r8) and improved
# staggered (r12 long links) in double, single and half, plain stores against non-temporal ones.
set -u
R=/tmp/nt2; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build.log 2>&1 ) || { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
export OMP_NUM_THREADS=16
for m in 0 1; do printf '#!/bin/sh\nGLUON_CPU_STREAM_STORES=%s exec %s/build/bin/gluon "$@"\n' $m $PWD > /tmp/gluon-nt$m; chmod +x /tmp/gluon-nt$m; done
BINS="plain=/tmp/gluon-nt0 stream=/tmp/gluon-nt1" RUNS=1 OPS="wilson clover" \
  PRECS="double single half" RECONS="12 8" LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$R/wc \
  timeout $((570 - SECONDS)) bash bench/dslash-cpu.sh > $R/wc.txt 2>&1
BINS="plain=/tmp/gluon-nt0 stream=/tmp/gluon-nt1" RUNS=1 OPS="staggered improved-staggered" \
  PRECS="double single half" RECONS="12" LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$R/st \
  timeout $((570 - SECONDS)) bash bench/dslash-cpu.sh > $R/st.txt 2>&1
BINS="plain=/tmp/gluon-nt0 stream=/tmp/gluon-nt1" RUNS=1 OPS="staggered" \
  PRECS="double single half" RECONS="8" LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$R/st8 \
  timeout $((570 - SECONDS)) bash bench/dslash-cpu.sh > $R/st8.txt 2>&1
echo "done at $((SECONDS - S)) s"
cat $R/wc/summary.txt; tail -n +2 $R/st/summary.txt; tail -n +2 $R/st8/summary.txt
tar -czf $OUT/trip2.tgz -C $R .
