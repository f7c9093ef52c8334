#!/usr/bin/env bash
# The new half default (BiCGstab delta 0.02) on one GPU, from the repository root:
#   STAGE=build OUT=<dir> bash bench/results/2026-11-27-half-delta/trip.sh   (the cuda build)
#   STAGE=run   OUT=<dir> bash bench/results/2026-11-27-half-delta/trip.sh
# run: the GPU solver tests, then double-half BiCGstab (Wilson, clover asymmetric and symmetric)
# at 32^4 with the default delta and with --delta 0.1 (the old default), alternating, two rounds,
# then the CG-family rows at their (unchanged) default.
set -uo pipefail
OUT=${OUT:?}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 GLUON_TUNE_CACHE=$OUT/tunecache.json
[[ -d .deps/testdata/gauge ]] && export GLUON_TESTDATA=$PWD/.deps/testdata
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
G=build-cuda/bin/gluon
if [[ ${STAGE:-run} == build ]]; then
  PARTS=build OUT=$OUT bash bench/solver-gpu.sh
  exit
fi
OMP_NUM_THREADS=8 ctest --test-dir build-cuda -R "gpu_solver" --output-on-failure >"$OUT/ctest-solver.log" 2>&1
tail -3 "$OUT/ctest-solver.log"
row() {  # label, args...
  local lab=$1; shift
  printf '%-40s ' "$lab"
  $G bench solver --sloppy-precision half --iterations 20 --json "$@" 2>>"$OUT/err.txt" |
    python3 -c "import json,sys; d=json.load(sys.stdin); print('it', d['iterations'], 'upd', d.get('reliable_updates',''), 'delta', d.get('reliable_delta',''), 'res %.2e' % d['true_residual'], 'GFLOP/s', round(d['gflops'],1), 'of op', round(d['fraction_of_operator'],3))"
}
for round in 1 2; do
  for op in "wilson" "clover" "clover --clover-pc symmetric"; do
    row "$op bicgstab default" --operator $op
    row "$op bicgstab delta 0.1" --operator $op --delta 0.1
  done
done
for op in "wilson --solver cgnr" "clover --solver cgnr" "staggered" "improved-staggered"; do
  row "$op default" --operator $op
done
