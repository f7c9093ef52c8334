#!/usr/bin/env bash
# Call 2 of 2 (call 1: `bash bench/gpu-build.sh || exit 1`, the whole tree): the GPU tests at this
# tree, then multi-shift CG (staggered, mass 0.05, 8 default shifts, tol 1e-10, 32^4, r12) in
# double, double-single and double-half on a rough (epsilon 0.6) and an easy (0.1) weak field,
# the mixed rows with the base shift's solution folded into x every 16 iterations (now) and only at
# reliable updates (before; GLUON_EXP_MULTISHIFT_NO_BASE_FLUSH=1, a switch for this trip only),
# alternating processes, two rounds. Rows stop when the call's budget (BUDGET s) is near.
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
(cd build-cuda && ctest -L gpu -j 4 --timeout 300 > $OUT/ctest-gpu.log 2>&1; tail -4 $OUT/ctest-gpu.log)
echo "tests done $((SECONDS - S)) s"
R=$OUT/r; mkdir -p $R
export GLUON_TUNE_CACHE=$R/tunecache.json
row() {  # eps sloppy variant round
  local j=$R/eps$1-$2-$3-$4.json
  local env=(); [[ $3 == before ]] && env=(GLUON_EXP_MULTISHIFT_NO_BASE_FLUSH=1)
  env "${env[@]}" timeout 60 $B/gluon bench solver --solver multishift --operator staggered --mass 0.05 --epsilon $1 \
    --precision double --sloppy-precision $2 --recon 12 --lattice 32,32,32,32 --repeat 3 --json > $j 2>>$R/bench.log
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('round %s eps %-4s %-7s %-6s %5d it (base %4d)  %.4f s  %.3f of op  refine %s  res %.1e' % ('$4', '$1', '$2', '$3', d['iterations'], d['shift_iterations'][0], d['seconds'], d['fraction_of_operator'], d['shift_refine_iterations'], d['true_residual']))" $j | tee -a $OUT/sum.txt
}
for eps in 0.6 0.1; do
  row $eps none now 1
  for round in 1 2; do
    for sloppy in single half; do
      for v in now before; do
        [[ $((SECONDS - S)) -gt ${BUDGET:-540} ]] && break 4
        row $eps $sloppy $v $round
      done
    done
  done
done
echo "done $((SECONDS - S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
