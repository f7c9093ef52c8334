#!/usr/bin/env bash
# Call 3 on the Xeon host: the final tree (non-temporal dslash stores by default above the
# last-level cache): its vector-kernel tests (AVX-512, and the AVX2 build forced), then one run of
# every operator, precision and compression at 48^4 (trip4.sh: a second run on the warm machine).
set -u
R=/tmp/nt3; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon unit_dirac_wilson_simd_test unit_dirac_staggered_test unit_bench_cli_test -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
export GLUON_TESTDATA=$PWD/.deps/testdata OMP_NUM_THREADS=16
lscpu > $R/lscpu.txt; grep -i huge /proc/meminfo > $R/meminfo-before.txt; cat /sys/kernel/mm/transparent_hugepage/enabled > $R/thp.txt 2>&1
build/bin/gluon info > $R/info.txt 2>&1
(cd build && ctest -R "Simd|simd|Staggered|staggered|BenchCli|bench_cli" -E "^gpu_" --output-on-failure > $R/ctest-simd.log 2>&1)
grep -E "tests passed|tests failed|Total Test" $R/ctest-simd.log
(cd build && GLUON_CPU_SIMD=avx2 ctest -R "Simd|simd|Staggered|staggered" -E "^gpu_" --output-on-failure > $R/ctest-simd-avx2.log 2>&1)
grep -E "tests passed|tests failed|Total Test" $R/ctest-simd-avx2.log
echo "tested at $((SECONDS - S)) s"
run_set() {  # $1: output folder
  BINS="final=build/bin/gluon" RUNS=1 OPS="wilson clover" PRECS="double single half" RECONS="12 8" \
    LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$1/wc timeout $((575 - SECONDS)) bash bench/dslash-cpu.sh > $1/wc.txt 2>&1
  BINS="final=build/bin/gluon" RUNS=1 OPS="staggered" PRECS="double single half" RECONS="12 8" \
    LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$1/st timeout $((575 - SECONDS)) bash bench/dslash-cpu.sh > $1/st.txt 2>&1
  BINS="final=build/bin/gluon" RUNS=1 OPS="improved-staggered" PRECS="double single half" RECONS="12" \
    LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$1/is timeout $((575 - SECONDS)) bash bench/dslash-cpu.sh > $1/is.txt 2>&1
}
mkdir -p $R/run1 && run_set $R/run1
grep -i huge /proc/meminfo > $R/meminfo-after.txt
echo "done at $((SECONDS - S)) s"
cat $R/run1/wc/summary.txt; tail -n +2 $R/run1/st/summary.txt; tail -n +2 $R/run1/is/summary.txt
tar -czf $OUT/trip3.tgz -C $R .
