#!/usr/bin/env bash
# Call 7: r8 links on the Xeon host, this session's three CPU commits against 3b6b235 (patch -R of
# .deps/session.patch, their combined src diff): Wilson, clover and naive staggered, half and
# single, r8, 48^4, interleaved (bench/dslash-cpu.sh). Builds and runs in one call.
set -u
R=/tmp/hl7; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build1.log 2>&1 && cp build/bin/gluon /tmp/gluon-now &&
  patch -R -p1 < .deps/session.patch > $R/patch.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build2.log 2>&1 && cp build/bin/gluon /tmp/gluon-base &&
  patch -p1 < .deps/session.patch >> $R/patch.log 2>&1 ) || { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
BINS="base=/tmp/gluon-base now=/tmp/gluon-now" RUNS=2 OPS="wilson clover staggered" PRECS="half single" RECONS=8 \
  LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$R/r8 timeout $((540 - SECONDS)) bash bench/dslash-cpu.sh > $R/r8.txt 2>&1
echo "done at $((SECONDS - S)) s"
cat $R/r8/summary.txt
tar -czf $OUT/trip7.tgz -C $R .
