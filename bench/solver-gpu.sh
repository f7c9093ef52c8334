#!/usr/bin/env bash
# Issue 3 on one GPU in one trip: the dslash rows that are furthest from the goals, the solver
# against the bare operator, and mixed precision against pure double. From the repository root,
# after building the cuda preset (bench/run-gpu.sh does; or PARTS=build here):
#
#   OUT=<dir> bash bench/solver-gpu.sh
#
# PARTS (default "build tests dslash solver profile") picks the steps:
#   build    configure and build the cuda preset (JOBS, default 16)
#   tests    ctest -L gpu
#   dslash   gluon bench copy, then gluon bench dslash for Wilson/clover double/single/half r12
#            and single r8, naive and improved staggered double/single/half (long links r12), at
#            $LATTICE (default 32,32,32,32)
#   solver   gluon bench solver for each row of bench/solve-table.txt: Wilson and clover
#            (asymmetric and symmetric; BiCGstab) and staggered (CG), each in double,
#            double-single and double-half, tol 1e-10, at each of $SOLVER_LATTICES (default
#            $LATTICE); files named by row_name
#   cgnr     gluon bench solver --solver cgnr for the Wilson and clover rows of bench/solve-table.txt,
#            in double, double-single and double-half, then the Wilson double CGNR solve again with
#            GLUON_PROFILE=1
#   cgne     the same rows with --solver cgne
#   profile  the clover double-single, Wilson double and staggered double-single and double solves again with
#            GLUON_PROFILE=1 (per-kernel GPU time and the idle gaps between launches;
#            runtime/profile.h)
#   sass     registers, stack frame and spills of every dslash kernel (cuobjdump -res-usage of
#            the dslash objects) into $OUT/res-usage.txt, and the opcode counts of the plain
#            Wilson r12 kernels (scripts/sass-histogram.py) into $OUT/sass-histogram.txt
# Everything lands in $OUT (JSON per run, logs, tunecache.json); $OUT/summary.txt is the table.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:?set OUT to a directory for the results}
PARTS=${PARTS:-build sass tests dslash solver profile}
LATTICE=${LATTICE:-32,32,32,32}
BUILD_DIR=${BUILD_DIR:-build-cuda}
GLUON=${GLUON:-$BUILD_DIR/bin/gluon}
TABLE_FILE=${TABLE_FILE:-bench/dslash-table.txt}  # operator precision recon, one dslash row a line (issue 3's table)
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
export GLUON_TUNE_CACHE=${GLUON_TUNE_CACHE:-$OUT/tunecache.json}
[[ -d .deps/testdata/gauge && -z "${GLUON_TESTDATA:-}" ]] && export GLUON_TESTDATA=$PWD/.deps/testdata
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
has() { [[ " $PARTS " == *" $1 "* ]]; }
rc=0
S=$SECONDS

if has build; then
  { cmake --preset cuda >"$OUT/configure.log" 2>&1 && cmake --build "$BUILD_DIR" -j "${JOBS:-16}" >"$OUT/build.log" 2>&1; } ||
    { tail -n 40 "$OUT/build.log" "$OUT/configure.log"; exit 1; }
  echo "build done after $((SECONDS - S)) s"
fi
if has sass; then
  for o in "$BUILD_DIR"/src/CMakeFiles/gluon_qcd.dir/qcd/dirac/*dslash*_kernels.cpp.o; do
    echo "== $o"
    cuobjdump -res-usage "$o" 2>&1 | awk '/Function/ {f=$2} /REG:/ {print $0 "  " f}' | c++filt | grep -E "Dslash|Staggered" |
      sed -E 's/gluon::(runtime::|qcd::|qcd::detail::)//g' | cut -c1-400
  done >"$OUT/res-usage.txt" 2>&1
  for p in single half double; do  # plain r12 body kernels: opcode counts (scripts/sass-histogram.py)
    cuobjdump -sass "$BUILD_DIR/src/CMakeFiles/gluon_qcd.dir/qcd/dirac/wilson_dslash_${p}_kernels.cpp.o" 2>/dev/null |
      python3 scripts/sass-histogram.py "WilsonBody<" "12>, false>"
  done >"$OUT/sass-histogram.txt" 2>&1
fi
if has tests; then
  # Four tests at a time, each with a quarter of the cores for its CPU references: with every
  # test on all 16 threads, DiracWilsonGpu.TwoThreadsASiteMatchTheCpu ran past 219 s, where it
  # takes 73 s beside one other test (bench/results/2026-11-27-head-gpu/).
  threads=$(( $(nproc) / 4 > 0 ? $(nproc) / 4 : 1 ))
  OMP_NUM_THREADS=$threads ctest --test-dir "$BUILD_DIR" -L gpu -j 4 --output-on-failure --no-tests=error \
    >"$OUT/ctest-gpu.log" 2>&1 || rc=1
  tail -4 "$OUT/ctest-gpu.log"
  echo "gpu tests done after $((SECONDS - S)) s"
fi

row_name() {  # a solve-table row's file name: the operator, and -symmetric for symmetric clover
  local op=$1
  shift
  [[ " $* " == *" --clover-pc symmetric "* ]] && op="$op-symmetric"
  echo "$op"
}

line() {  # one summary row from a bench JSON
  python3 - "$1" <<'PY' >>"$OUT/summary.txt"
import json, sys
j = json.load(open(sys.argv[1]))
if j.get("benchmark") == "solver":
    name = j['operator'] + ("-sym" if j.get("clover_pc") == "symmetric" else "")
    print(f"solver {name:>19} {j['precision']:>13} {j['solver']:>9} it {j['iterations']:5d} "
          f"res {j['true_residual']:.2e} {j['seconds']:7.3f} s {j['gflops']:7.1f} GFLOP/s "
          f"= {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:7.1f}")
else:
    op = (f" | M {j['operator_gflops']:7.1f} GFLOP/s {100*j['operator_fraction_of_copy']:5.1f}% of copy"
          if "operator_fraction_of_copy" in j else "")
    print(f"dslash {j['operator']:>19} {j['precision']:>7} r{j['recon']:<2} {j['gflops']:7.1f} GFLOP/s "
          f"{j['effective_gbs']:7.1f} GB/s {100*j['fraction_of_copy']:5.1f}% of copy {j['copy_gbs']:.0f}{op}")
PY
}

if has dslash; then
  "$GLUON" bench copy --backend cuda --json >"$OUT/copy.json" 2>>"$OUT/bench.log" || rc=1
  while read -r op prec recon; do
    f="$OUT/dslash-$op-$prec-r$recon.json"
    "$GLUON" bench dslash --backend cuda --operator "$op" --precision "$prec" --recon "$recon" \
      --lattice "$LATTICE" --json >"$f" 2>>"$OUT/bench.log" && line "$f" || rc=1
  done <"$TABLE_FILE"
  echo "dslash done after $((SECONDS - S)) s"
fi

if has solver; then
  while read -r op args; do
    for lat in ${SOLVER_LATTICES:-$LATTICE}; do
      for sloppy in none single half; do
        f="$OUT/solver-$(row_name $op $args)-$sloppy-${lat//,/x}.json"
        "$GLUON" bench solver --backend cuda --operator "$op" $args --precision double --sloppy-precision "$sloppy" \
          --recon 12 --tol 1e-10 --lattice "$lat" --json >"$f" 2>>"$OUT/bench.log" && line "$f" || rc=1
      done
    done
  done <bench/solve-table.txt  # operator and its flags, one solve a line
  echo "solver done after $((SECONDS - S)) s"
fi

normal_rows() {  # $1 = cgnr or cgne: the Wilson and clover rows of bench/solve-table.txt, double, double-single, double-half
  local solver=$1 op args sloppy f
  while read -r op args; do
    [[ $op == wilson || $op == clover ]] || continue
    for sloppy in none single half; do
      f="$OUT/$solver-$(row_name $op $args)-$sloppy.json"
      "$GLUON" bench solver --backend cuda --operator "$op" $args --solver "$solver" --precision double \
        --sloppy-precision "$sloppy" --recon 12 --tol 1e-10 --lattice "$LATTICE" --json >"$f" 2>>"$OUT/bench.log" &&
        line "$f" || rc=1
    done
  done <bench/solve-table.txt
}

if has cgnr; then
  normal_rows cgnr
  GLUON_PROFILE=1 "$GLUON" bench solver --backend cuda --operator wilson --kappa 0.12 --solver cgnr --precision double \
    --sloppy-precision none --recon 12 --tol 1e-10 --lattice "$LATTICE" >"$OUT/profile-cgnr-wilson-none.txt" 2>&1 || rc=1
  echo "cgnr done after $((SECONDS - S)) s"
fi
if has cgne; then
  normal_rows cgne
  echo "cgne done after $((SECONDS - S)) s"
fi

if has profile; then
  GLUON_PROFILE=1 "$GLUON" bench solver --backend cuda --operator clover --kappa 0.12 --csw 1.0 --precision double \
    --sloppy-precision single --recon 12 --tol 1e-10 --lattice "$LATTICE" >"$OUT/profile-clover-single.txt" 2>&1 || rc=1
  GLUON_PROFILE=1 "$GLUON" bench solver --backend cuda --operator wilson --kappa 0.12 --precision double \
    --sloppy-precision none --recon 12 --tol 1e-10 --lattice "$LATTICE" >"$OUT/profile-wilson-none.txt" 2>&1 || rc=1
  for sloppy in single none; do
    GLUON_PROFILE=1 "$GLUON" bench solver --backend cuda --operator staggered --mass 0.05 --precision double \
      --sloppy-precision $sloppy --recon 12 --tol 1e-10 --lattice "$LATTICE" >"$OUT/profile-staggered-$sloppy.txt" 2>&1 || rc=1
  done
  echo "profile done after $((SECONDS - S)) s"
fi

[[ -f "$OUT/summary.txt" ]] && cat "$OUT/summary.txt"
for f in "$OUT"/profile-*.txt; do [[ -f $f ]] && { echo "== $f"; head -40 "$f"; }; done
exit $rc
