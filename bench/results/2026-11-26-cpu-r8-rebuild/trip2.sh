#!/usr/bin/env bash
# Call 2 on the same warm machine: the r8 rows of Wilson, clover and naive staggered in double,
# single and half at 48^4, 16 threads, the three binaries of trip1.sh interleaved
# (bench/dslash-cpu.sh), 2 runs each.
set -u
R=/tmp/r8t2; rm -rf $R; mkdir -p $R
S=$SECONDS
BINS="base=/tmp/gluon-base nopair=/tmp/gluon-nopair new=/tmp/gluon-new" RUNS=2 OPS="wilson clover staggered" \
  PRECS="single half double" RECONS=8 LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$R/r8 \
  timeout $((560 - SECONDS)) bash bench/dslash-cpu.sh > $R/r8.txt 2>&1
echo "done at $((SECONDS - S)) s"
cat $R/r8/summary.txt
tar -czf $OUT/trip2.tgz -C $R .
