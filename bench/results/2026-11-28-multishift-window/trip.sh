#!/usr/bin/env bash
# Call 2 of 2 (call 1: `bash bench/gpu-build.sh || exit 1`, the whole tree): the GPU tests at this
# tree, then multi-shift CG (8 default shifts, tol 1e-10, 32^4, r12) with the non-base shifts'
# updates applied a window of 8 iterations at a time (--multishift-window 8, the default) against
# every iteration (1, as before): staggered, mass 0.05, on a rough (epsilon 0.6) and an easy (0.1)
# weak field in double, double-single and double-half, alternating processes, two rounds; then
# improved staggered and Wilson (M^+ M) on the easy field, one round. Rows stop when the call's
# budget (BUDGET s) is near. TESTS (a ctest -R pattern) limits the GPU tests, ROUNDS (2) the
# staggered rounds.
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
(cd build-cuda && ctest -L gpu -j 4 --timeout 300 ${TESTS:+-R "$TESTS"} > $OUT/ctest-gpu.log 2>&1; tail -4 $OUT/ctest-gpu.log)
echo "tests done $((SECONDS - S)) s"
R=$OUT/r; mkdir -p $R
export GLUON_TUNE_CACHE=$R/tunecache.json
row() {  # operator eps sloppy window round
  local j=$R/$1-eps$2-$3-w$4-$5.json
  local par=(--mass 0.05); [[ $1 == wilson ]] && par=(--kappa 0.12)
  timeout 60 $B/gluon bench solver --solver multishift --operator $1 "${par[@]}" --epsilon $2 \
    --precision double --sloppy-precision $3 --recon 12 --lattice 32,32,32,32 --repeat 3 \
    --multishift-window $4 --json > $j 2>>$R/bench.log
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('round %s %-18s eps %-4s %-7s w%s %5d it  %.4f s  %.3f of op  refine %s  res %.1e' % ('$5', '$1', '$2', '$3', '$4', d['iterations'], d['seconds'], d['fraction_of_operator'], d['shift_refine_iterations'], d['true_residual']))" $j | tee -a $OUT/sum.txt
}
for eps in 0.6 0.1; do
  for round in $(seq 1 ${ROUNDS:-2}); do
    for sloppy in none single half; do
      for w in 8 1; do
        [[ $((SECONDS - S)) -gt ${BUDGET:-540} ]] && break 4
        row staggered $eps $sloppy $w $round
      done
    done
  done
done
for op in improved-staggered wilson; do
  for sloppy in none single; do
    for w in 8 1; do
      [[ $((SECONDS - S)) -gt ${BUDGET:-540} ]] && break 3
      row $op 0.1 $sloppy $w 1
    done
  done
done
echo "done $((SECONDS - S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
