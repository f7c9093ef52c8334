#!/usr/bin/env bash
# Call 2 of 2 (call 1: `bash bench/gpu-build.sh || exit 1`, the whole tree): the GPU tests at this
# tree, then multi-shift CG with the shift inside the operator's fused CG step (default) against
# the shift as separate BLAS passes (GLUON_SHIFT_FOLD=0, the code path before), alternating
# processes: staggered (mass 0.05) on a rough weak field (epsilon 0.6) and Wilson M^+ M (kappa
# 0.12) on an easy one (0.1), 32^4, r12, tol 1e-10 every shift; with the 8 default shifts (base 0:
# only the refinements are shifted) and with RHMC-like shifts that are all positive (the whole
# loop shifted). Then Wilson CGNR (no shift) in double and double-single, against the earlier
# sessions' figures: the update kernel gained a branch. TESTS (a ctest -R pattern) limits the
# GPU tests; rows stop when the call's budget (BUDGET s) is near.
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
(cd build-cuda && ctest -L gpu -j 4 --timeout 300 ${TESTS:+-R "$TESTS"} > $OUT/ctest-gpu.log 2>&1; tail -4 $OUT/ctest-gpu.log)
echo "tests done $((SECONDS - S)) s"
R=$OUT/r; mkdir -p $R
export GLUON_TUNE_CACHE=$R/tunecache.json
POS=0.0004,0.0025,0.01,0.04,0.16,0.64,2.56,10.24
row() {  # label operator eps sloppy shifts fold(0|1) solver
  local j=$R/$1-$4-f$6.json
  local par=(--mass 0.05); [[ $2 == wilson ]] && par=(--kappa 0.12)
  local sh=(); [[ $5 != default ]] && sh=(--shifts $5)
  local env=(); [[ $6 == 0 ]] && env=(GLUON_SHIFT_FOLD=0)
  env "${env[@]}" timeout 90 $B/gluon bench solver --solver $7 --operator $2 "${par[@]}" --epsilon $3 "${sh[@]}" \
    --precision double --sloppy-precision $4 --recon 12 --lattice 32,32,32,32 --repeat 3 \
    --json > $j 2>>$R/bench.log
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%-22s %-7s fold %s %5d it  %.4f s  %.3f of op  refine %s  res %.1e' % ('$1', '$4', '$6', d['iterations'], d['seconds'], d['fraction_of_operator'], d.get('shift_refine_iterations'), d['true_residual']))" $j | tee -a $OUT/sum.txt
}
for round in 1 2; do
  for spec in "stag-base0 staggered 0.6 single default" "stag-pos staggered 0.6 none $POS" \
              "stag-pos staggered 0.6 single $POS" "wilson-base0 wilson 0.1 single default" \
              "wilson-pos wilson 0.1 none $POS" "stag-base0 staggered 0.6 half default"; do
    set -- $spec
    for f in 1 0; do
      [[ $((SECONDS - S)) -gt ${BUDGET:-540} ]] && break 3
      row "$1-r$round" $2 $3 $4 $5 $f multishift
    done
  done
done
for sloppy in none single; do
  [[ $((SECONDS - S)) -gt ${BUDGET:-540} ]] && break
  row cgnr-wilson wilson 0.1 $sloppy default 1 cgnr
done
echo "done $((SECONDS - S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
