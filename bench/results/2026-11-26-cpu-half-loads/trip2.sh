#!/usr/bin/env bash
# Call 2 (same warm machine as trip1.sh): the CPU half dslash A/B at 48^4, base and new
# interleaved (bench/dslash-cpu.sh), 16 threads.
set -u
R=/tmp/hl2; rm -rf $R; mkdir -p $R
BINS="base=/tmp/gluon-base new=/tmp/gluon-new" RUNS=${RUNS:-2} OPS="${OPS:-wilson clover staggered improved-staggered}" \
  PRECS=half RECONS="${RECONS:-18 12}" LATTICES=48,48,48,48 WAIT=2 ITER=30 OUT=$R/half \
  timeout $((${BUDGET:-560} - SECONDS)) bash bench/dslash-cpu.sh > $R/half.txt 2>&1
echo "done at $SECONDS s"
cat $R/half/summary.txt
tar -czf $OUT/trip2.tgz -C $R .
