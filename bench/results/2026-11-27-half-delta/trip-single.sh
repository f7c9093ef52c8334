#!/usr/bin/env bash
# Double-single solves at delta 0.01 (the default) against 0.003 and 0.001 on one GPU, from the
# repository root, after `STAGE=build OUT=<dir> bash bench/results/2026-11-27-half-delta/trip.sh`:
#   OUT=<dir> bash bench/results/2026-11-27-half-delta/trip-single.sh
# 32^4, r12, weak field, tol 1e-10, 20 solves a row (median), alternating, two rounds.
set -uo pipefail
OUT=${OUT:?}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 GLUON_TUNE_CACHE=$OUT/tunecache.json
G=build-cuda/bin/gluon
row() {  # label, args...
  local lab=$1; shift
  printf '%-44s ' "$lab"
  $G bench solver --sloppy-precision single --iterations 20 --json "$@" 2>>"$OUT/err.txt" |
    python3 -c "import json,sys; d=json.load(sys.stdin); print('it', d['iterations'], 'upd', d.get('reliable_updates',''), 'delta', d.get('reliable_delta',''), 'res %.2e' % d['true_residual'], 'GFLOP/s', round(d['gflops'],1), 'of op', round(d['fraction_of_operator'],3))"
}
for round in 1 2; do
  for op in "wilson" "clover" "wilson --solver cgnr" "clover --solver cgnr" "staggered" "improved-staggered"; do
    for d in 0.01 0.003 0.001; do row "$op delta $d" --operator $op --delta $d; done
  done
done
