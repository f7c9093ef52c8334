#!/usr/bin/env bash
# Call 4 on the warm machine of trip3.sh (its build/ still there; built again if not): a second
# run of every operator, precision and compression at 48^4.
set -u
R=/tmp/nt4; rm -rf $R; mkdir -p $R
S=$SECONDS
[ -x build/bin/gluon ] || { cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build.log 2>&1; echo "built at $((SECONDS - S)) s"; }
export OMP_NUM_THREADS=16
build/bin/gluon info > $R/info.txt 2>&1
run_set() {  # $1: output folder
  BINS="final=build/bin/gluon" RUNS=1 OPS="wilson clover" PRECS="double single half" RECONS="12 8" \
    LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$1/wc timeout $((575 - SECONDS)) bash bench/dslash-cpu.sh > $1/wc.txt 2>&1
  BINS="final=build/bin/gluon" RUNS=1 OPS="staggered" PRECS="double single half" RECONS="12 8" \
    LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$1/st timeout $((575 - SECONDS)) bash bench/dslash-cpu.sh > $1/st.txt 2>&1
  BINS="final=build/bin/gluon" RUNS=1 OPS="improved-staggered" PRECS="double single half" RECONS="12" \
    LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$1/is timeout $((575 - SECONDS)) bash bench/dslash-cpu.sh > $1/is.txt 2>&1
}
mkdir -p $R/run2 && run_set $R/run2
echo "done at $((SECONDS - S)) s"
cat $R/run2/wc/summary.txt; tail -n +2 $R/run2/st/summary.txt; tail -n +2 $R/run2/is/summary.txt
tar -czf $OUT/trip4.tgz -C $R .
