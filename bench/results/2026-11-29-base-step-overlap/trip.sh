#!/usr/bin/env bash
# Call 2 of 2 (call 1: `bash bench/gpu-build.sh || exit 1`, the whole tree): the GPU BLAS and
# solver tests, then the multi-shift rows of ../2026-11-29-shift-fold/ (the fused-shift ones) at
# this tree, where the windowed base step is queued before the host's wait (beta read from the
# device slots), two rounds; then one profiled solve (GLUON_PROFILE=1) of two of them, whose idle
# gap before blas_multishift_base is the quantity the change targets. TESTS: a ctest -R pattern.
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
(cd build-cuda && ctest -L gpu -j 4 --timeout 300 -R "${TESTS:-Blas|Solver}" > $OUT/ctest-gpu.log 2>&1; tail -4 $OUT/ctest-gpu.log)
echo "tests done $((SECONDS - S)) s"
R=$OUT/r; mkdir -p $R
export GLUON_TUNE_CACHE=$R/tunecache.json
POS=0.0004,0.0025,0.01,0.04,0.16,0.64,2.56,10.24
args() {  # operator eps sloppy shifts
  local par=(--mass 0.05); [[ $1 == wilson ]] && par=(--kappa 0.12)
  local sh=(); [[ $4 != default ]] && sh=(--shifts $4)
  echo --solver multishift --operator $1 "${par[@]}" --epsilon $2 "${sh[@]}" --precision double \
    --sloppy-precision $3 --recon 12 --lattice 32,32,32,32
}
for round in 1 2; do
  for spec in "stag-base0 staggered 0.6 single default" "stag-pos staggered 0.6 none $POS" \
              "stag-pos staggered 0.6 single $POS" "wilson-pos wilson 0.1 none $POS"; do
    set -- $spec
    [[ $((SECONDS - S)) -gt ${BUDGET:-400} ]] && break 2
    j=$R/$1-$4-r$round.json
    timeout 90 $B/gluon bench solver $(args $2 $3 $4 $5) --repeat 3 --json > $j 2>>$R/bench.log
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%-12s r%s %-7s %5d it  %.4f s  %.3f of op  res %.1e' % ('$1', '$round', '$4', d['iterations'], d['seconds'], d['fraction_of_operator'], d['true_residual']))" $j | tee -a $OUT/sum.txt
  done
done
for spec in "stag-pos staggered 0.6 none $POS" "stag-pos staggered 0.6 single $POS"; do
  set -- $spec
  GLUON_PROFILE=1 timeout 90 $B/gluon bench solver $(args $2 $3 $4 $5) --repeat 1 > $OUT/profile-$1-$4.txt 2>&1
  head -8 $OUT/profile-$1-$4.txt | grep -E "profile:|multishift_base"
done
echo "done $((SECONDS - S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
