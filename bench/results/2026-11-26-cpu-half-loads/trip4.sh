#!/usr/bin/env bash
# Call 4 (same warm machine as trip3.sh): the FMA commit against the half-loads commit, Wilson and
# clover in double, single and half, r18 and r12, at 48^4, interleaved (bench/dslash-cpu.sh).
set -u
R=/tmp/hl4; rm -rf $R; mkdir -p $R
BINS="loads=/tmp/gluon-loads fma=/tmp/gluon-fma" RUNS=${RUNS:-2} OPS="${OPS:-wilson clover}" \
  PRECS="${PRECS:-half single double}" RECONS="${RECONS:-18 12}" LATTICES=48,48,48,48 WAIT=2 ITER=30 OUT=$R/ab \
  timeout $((${BUDGET:-570} - SECONDS)) bash bench/dslash-cpu.sh > $R/ab.txt 2>&1
echo "done at $SECONDS s"
cat $R/ab/summary.txt
tar -czf $OUT/trip4.tgz -C $R .
