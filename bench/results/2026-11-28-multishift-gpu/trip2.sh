#!/usr/bin/env bash
# Trip 2: the fused step only (the switch removed), staggered at mass 0.05 on a rough weak field
# (epsilon 0.6: near-zero modes, several times the iterations) and on trip 1's (epsilon 0.1),
# multi-shift CG (8 default shifts, tol 1e-10) in double, double-single and double-half against
# plain CG on the same field: does mixed precision pay once the base system needs many more
# iterations than the shifts' refinements? Rows stop when the call's budget (BUDGET s) is near.
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
bash bench/gpu-build.sh gluon || exit 1
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
R=$OUT/r; mkdir -p $R
export GLUON_TUNE_CACHE=$R/tunecache.json
for eps in 0.6 0.1; do
  for solver in multishift cg; do
    for sloppy in none single half; do
      [[ $((SECONDS - S)) -gt ${BUDGET:-430} ]] && break 3
      j=$R/$solver-eps$eps-$sloppy.json
      timeout 60 $B/gluon bench solver --solver $solver --operator staggered --mass 0.05 --epsilon $eps --precision double \
        --sloppy-precision $sloppy --recon 12 --lattice 32,32,32,32 --repeat 3 --json > $j 2>>$R/bench.log
      python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%-10s eps %-4s %-7s %5d it  %.4f s  %7.1f GFLOP/s  %.3f of op  refine %s  res %.1e' % ('$solver', '$eps', '$sloppy', d['iterations'], d['seconds'], d['gflops'], d['fraction_of_operator'], d.get('shift_refine_iterations', '-'), d['true_residual']))" $j | tee -a $OUT/sum.txt
    done
  done
done
echo "done $((SECONDS - S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
