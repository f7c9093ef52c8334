#!/usr/bin/env bash
# Call 3 on the same warm machine: the pairing alone (nopair against new of trip1.sh) in single
# and half, 3 more interleaved runs each: trip2's half pairs scattered both ways.
set -u
R=/tmp/r8t3; rm -rf $R; mkdir -p $R
S=$SECONDS
BINS="nopair=/tmp/gluon-nopair new=/tmp/gluon-new" RUNS=3 OPS="wilson clover staggered" \
  PRECS="half single" RECONS=8 LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$R/r8 \
  timeout $((560 - SECONDS)) bash bench/dslash-cpu.sh > $R/r8.txt 2>&1
echo "done at $((SECONDS - S)) s"
cat $R/r8/summary.txt
tar -czf $OUT/trip3.tgz -C $R .
