#!/usr/bin/env bash
# Double-single solves at reliable-update delta 0.001 (the default) against 0.0001, alternating
# processes, each the median of --repeat 5 timed solves; then the GPU solver tests.
#   STAGE=build|solver|tests (default all), ROUNDS (default 2)
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
STAGE=${STAGE:-build solver tests}
if [[ $STAGE == *build* ]]; then
  bash bench/gpu-build.sh gluon gpu_solver_test || exit 1
fi
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
R=$OUT/r; mkdir -p $R/tc
if [[ $STAGE == *solver* ]]; then
  for k in $(seq 1 ${ROUNDS:-2}); do
    for row in "staggered cg" "improved-staggered cg" "wilson cgnr" "clover cgnr" "wilson bicgstab"; do
      set -- $row
      ds="0.001 0.0001"; [[ $((k % 2)) == 0 ]] && ds="0.0001 0.001"
      for d in $ds; do
        j=$R/solver-$k-$1-$2-$d.json
        GLUON_TUNE_CACHE=$R/tc/$1-$2.json timeout 100 $B/gluon bench solver --backend cuda --operator $1 --solver $2 \
          --precision double --sloppy-precision single --delta $d --recon 12 --tol 1e-10 --lattice 32,32,32,32 \
          --iterations 50 --repeat 5 --json > $j 2>>$R/bench.log
        python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"$k {'$1':>18} {j['solver']:>9} delta {j['reliable_delta']:<7} it {j['iterations']:5d} upd {j['reliable_updates']:2d} res {j['true_residual']:.2e} {1e3*j['seconds']:7.2f} ms ({1e3*min(j['seconds_all']):.2f}-{1e3*max(j['seconds_all']):.2f}) {100*j['fraction_of_operator']:5.1f}% of op\")" $j | tee -a $OUT/sum.txt
      done
    done
  done
  echo "solver $((SECONDS-S)) s"
fi
if [[ $STAGE == *tests* ]]; then
  (cd build-cuda && timeout 200 ctest -R "gpu_solver_test|SolverGpu" --output-on-failure > $OUT/ctest.log 2>&1)
  tail -4 $OUT/ctest.log; echo "tests $((SECONDS-S)) s"
fi
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
