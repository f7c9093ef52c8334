#!/usr/bin/env bash
# Multi-shift CG's refinements together (SolverParams::multishift_together; the multi-vector
# staggered kernel) on one H200. PART=build: the whole tree (bench/gpu-build.sh), the GPU staggered
# and solver tests, then round 1 of the A/B (and, with PROFILE=1, one profiled solve each way).
# PART=ab: every GPU test, then the A/B rounds and one profiled solve each way. A/B: each multi-shift solve with the refinements together (the GPU's
# default) and one by one (GLUON_MULTISHIFT_TOGETHER=0), alternating order, one shared tune cache.
# Everything lands in $OUT/r.tar.
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
B=$PWD/build-cuda/bin
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
if [[ $PART == build ]]; then
  bash bench/gpu-build.sh || exit 1
  (cd build-cuda && ctest -L gpu -j 4 --timeout 300 -R "Solver|Staggered" > $R/ctest-gpu-part.log 2>&1; tail -3 $R/ctest-gpu-part.log)
  grep -E "Failed|\*\*\*" $R/ctest-gpu-part.log | head
  rounds="1"
else
  (cd build-cuda && OMP_NUM_THREADS=4 ctest -L gpu -j 4 --timeout 300 > $R/ctest-gpu.log 2>&1; tail -3 $R/ctest-gpu.log)
  grep -E "Failed|\*\*\*" $R/ctest-gpu.log | head
  rounds="2 3"
fi
echo "tests done $((SECONDS - S)) s"
export GLUON_TUNE_CACHE=$R/tunecache.json
POS=0.0004,0.0025,0.01,0.04,0.16,0.64,2.56,10.24
args() {  # operator eps sloppy shifts
  local sh=(); [[ $4 != default ]] && sh=(--shifts $4)
  echo --backend cuda --solver multishift --operator $1 --mass 0.05 --epsilon $2 "${sh[@]}" --precision double \
    --sloppy-precision $3 --recon 12 --lattice 32,32,32,32 --tol 1e-10
}
run() {  # label mode(on|off) operator eps sloppy shifts
  local label=$1 mode=$2; shift 2
  local j=$R/$label-$mode-r$round.json e=()
  [[ $mode == off ]] && e=(GLUON_MULTISHIFT_TOGETHER=0)
  env "${e[@]}" timeout 120 $B/gluon bench solver $(args "$@") --repeat 3 --json > $j 2>>$R/bench.log
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%-16s r$round %-3s %5d it  %.4f s  refine %.4f s  %.3f of op  res %.1e  refine its %s' % ('$label', '$mode', d['iterations'], d['seconds'], d['refine_seconds'], d['fraction_of_operator'], d['true_residual'], d['shift_refine_iterations']))" $j | tee -a $R/sum.txt
}
for round in $rounds; do
  order="on off"; [[ $((round % 2)) == 0 ]] && order="off on"
  for spec in "stag0-single staggered 0.6 single default" "stag0-half staggered 0.6 half default" \
              "stagpos-single staggered 0.6 single $POS" "impr0-single improved-staggered 0.6 single default"; do
    set -- $spec
    for mode in $order; do
      [[ $((SECONDS - S)) -gt ${BUDGET:-480} ]] && break 3
      run $1 $mode $2 $3 $4 $5
    done
  done
  [[ $round == 1 || $round == 3 ]] && for spec in "stag0-double staggered 0.6 none default"; do
    set -- $spec; [[ $((SECONDS - S)) -gt ${BUDGET:-480} ]] && break 2; run $1 on $2 $3 $4 $5; done
  echo "round $round done $((SECONDS - S)) s"
done
if [[ $PART != build || -n $PROFILE ]]; then
  for mode in on off; do
    [[ $((SECONDS - S)) -gt $((${BUDGET:-480} + 60)) ]] && break
    e=(); [[ $mode == off ]] && e=(GLUON_MULTISHIFT_TOGETHER=0)
    env "${e[@]}" GLUON_PROFILE=1 timeout 60 $B/gluon bench solver $(args staggered 0.6 single default) --repeat 1 > $R/profile-stag0-single-$mode.txt 2>&1
    head -12 $R/profile-stag0-single-$mode.txt | grep -E "profile:|multi|cg_step|re_dot|cg_residual"
  done
fi
echo "done $((SECONDS - S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
