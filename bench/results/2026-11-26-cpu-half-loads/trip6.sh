#!/usr/bin/env bash
# Call 6 (same warm machine as trip5.sh): half stores against the FMA commit, every CPU half
# operator, r18 and r12 (store: both commits), 48^4, interleaved (bench/dslash-cpu.sh).
set -u
R=/tmp/hl6; rm -rf $R; mkdir -p $R
BINS="fma=/tmp/gluon-fma store=/tmp/gluon-store" RUNS=${RUNS:-2} OPS="${OPS:-wilson clover staggered improved-staggered}" \
  PRECS=half RECONS="${RECONS:-18 12}" LATTICES=48,48,48,48 WAIT=2 ITER=30 OUT=$R/ab \
  timeout $((${BUDGET:-500} - SECONDS)) bash bench/dslash-cpu.sh > $R/ab.txt 2>&1
echo "done at $SECONDS s"
cat $R/ab/summary.txt
tar -czf $OUT/trip6.tgz -C $R .
