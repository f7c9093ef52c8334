#!/usr/bin/env bash
# CG look-ahead (SolverParams::cg_lookahead) on one H200. Call 1: PART=build (the whole tree, then
# the GPU solver and staggered tests); call 2: PART=ab (every GPU test, then each staggered and
# improved staggered CG solve and the staggered multi-shift solves with the look-ahead on (the
# default on a GPU) and off (GLUON_CG_LOOKAHEAD=0), two rounds in swapped order, one shared tune
# cache, and one profiled solve each way). Everything lands in $OUT/r.tar.
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
B=$PWD/build-cuda/bin
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
if [[ $PART == build ]]; then
  bash bench/gpu-build.sh || exit 1
  (cd build-cuda && ctest -L gpu -j 4 --timeout 300 -R "Solver|Staggered" > $R/ctest-gpu-part.log 2>&1; tail -3 $R/ctest-gpu-part.log)
  grep -E "Failed|\*\*\*" $R/ctest-gpu-part.log | head
else
  (cd build-cuda && OMP_NUM_THREADS=4 ctest -L gpu -j 4 --timeout 300 > $R/ctest-gpu.log 2>&1; tail -3 $R/ctest-gpu.log)
  grep -E "Failed|\*\*\*" $R/ctest-gpu.log | head
  echo "tests done $((SECONDS - S)) s"
  export GLUON_TUNE_CACHE=$R/tunecache.json
  run() {  # label on|off args...
    local label=$1 la=$2; shift 2
    local j=$R/$label-la$la-r$round.json
    if [[ $la == off ]]; then GLUON_CG_LOOKAHEAD=0 timeout 120 $B/gluon bench solver "$@" --json > $j 2>>$R/bench.log
    else timeout 120 $B/gluon bench solver "$@" --json > $j 2>>$R/bench.log; fi
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%-22s r$round %-3s %5d it  %.5f s  %.3f of op  la %d void %d  res %.1e' % ('$label', '$la', d['iterations'], d['seconds'], d['fraction_of_operator'], d.get('lookaheads',-1), d.get('lookaheads_void',-1), d['true_residual']))" $j | tee -a $R/sum.txt
  }
  common=(--backend cuda --precision double --recon 12 --lattice 32,32,32,32 --tol 1e-10)
  for round in 1 2; do
    order="on off"; [[ $round == 2 ]] && order="off on"
    for op in staggered improved-staggered; do
      for sl in none single half; do
        for la in $order; do run $op-$sl $la "${common[@]}" --operator $op --mass 0.05 --sloppy-precision $sl --repeat 5; done
      done
    done
    for sl in none single half; do
      for la in $order; do run ms-staggered-$sl $la "${common[@]}" --solver multishift --operator staggered --mass 0.05 --epsilon 0.6 --sloppy-precision $sl --repeat 3; done
    done
    echo "round $round done $((SECONDS - S)) s"
    [[ $((SECONDS - S)) -gt 420 ]] && break
  done
  for la in on off; do
    e=(); [[ $la == off ]] && e=(GLUON_CG_LOOKAHEAD=0)
    env "${e[@]}" GLUON_PROFILE=1 timeout 60 $B/gluon bench solver "${common[@]}" --operator staggered --mass 0.05 --sloppy-precision single --repeat 5 > $R/profile-staggered-single-$la.txt 2>&1
    head -8 $R/profile-staggered-single-$la.txt | grep -E "profile:|cg_norms|cg_residual|cg_step_p"
  done
fi
echo "done $((SECONDS - S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
