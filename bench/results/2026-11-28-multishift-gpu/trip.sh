#!/usr/bin/env bash
# Multi-shift CG on one GPU (gluon bench solver --solver multishift, 8 shifts 0..10.24 by default),
# 32^4, against the bare operator, and its base step as CG takes it (the operator's fused
# residual step, one host wait an iteration) against the step before (operator, re_dot and
# axpy_norm2, two waits: GLUON_EXP_MULTISHIFT_SEPARATE=1), separate processes alternating.
# Then the GPU solver tests (multi-shift included).
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
export NCCL_NVLS_ENABLE=0
bash bench/gpu-build.sh gluon gpu_solver_test || exit 1
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
(cd build-cuda && ctest -R "SolverGpu|gpu_solver" --output-on-failure > $OUT/ctest-solver.log 2>&1); tail -3 $OUT/ctest-solver.log
R=$OUT/r; mkdir -p $R
export GLUON_TUNE_CACHE=$R/tunecache.json
ROWS=("staggered double none 12" "staggered double single 12" "staggered double half 12"
      "improved-staggered double single 12" "improved-staggered double half 12"
      "wilson double none 12" "wilson double single 12")
for k in 1 2; do
  for row in "${ROWS[@]}"; do
    set -- $row
    for sep in 0 1; do
      [[ $((SECONDS - S)) -gt ${BUDGET:-540} ]] && break 3
      j=$R/ms-$k-$1-$2-$3-r$4-sep$sep.json
      GLUON_EXP_MULTISHIFT_SEPARATE=$sep timeout 60 $B/gluon bench solver --solver multishift --operator $1 \
        --precision $2 --sloppy-precision $3 --recon $4 --lattice 32,32,32,32 --repeat 3 --json > $j 2>>$R/bench.log
      python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%d %-20s %-7s %-6s sep%s  %4d it  %.4f s  %7.1f GFLOP/s  %.3f of op  refine %s  res %.1e' % ($k, '$1', '$2', '$3', '$sep', d['iterations'], d['seconds'], d['gflops'], d['fraction_of_operator'], d['shift_refine_iterations'], d['true_residual']))" $j | tee -a $OUT/sum.txt
    done
  done
done
echo "done $((SECONDS - S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
