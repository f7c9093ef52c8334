#!/usr/bin/env bash
# What a spinor basis with g_4 diagonal would buy the GPU Wilson/clover hop: its t neighbours
# would need one chiral half (12 reals) instead of 24. GLUON_EXP_T_HALF=1 (an experiment in
# wilson_dslash_impl.h) reads only that half, with wrong values, so only the speed means anything;
# `gluon bench dslash --ab-env GLUON_EXP_T_HALF=0,1` times both in one process, rounds alternating.
# Then (STAGE tests) every GPU test, with the experiment off (its default).
#   STAGE=build|dslash|tests (default build dslash), ROWS, ROUNDS (default 2)
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
export NCCL_NVLS_ENABLE=0
STAGE=${STAGE:-build dslash}
if [[ $STAGE == *build* ]]; then
  bash bench/gpu-build.sh || exit 1
fi
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
R=$OUT/r; mkdir -p $R/tc
ROWS=${ROWS:-"wilson single 8;clover single 8;wilson single 12;clover single 12;wilson double 12;clover double 12"}
if [[ $STAGE == *dslash* ]]; then
  IFS=';' read -ra rows <<< "$ROWS"
  for k in $(seq 1 ${ROUNDS:-2}); do
    for row in "${rows[@]}"; do
      set -- $row; j=$R/dslash-$k-$1-$2-$3.json
      GLUON_TUNE_CACHE=$R/tc/$k-$1-$2-$3.json timeout 200 $B/gluon bench dslash --operator $1 --precision $2 --recon $3 \
        --lattice 32,32,32,32 --iterations 60 --ab-env GLUON_EXP_T_HALF=0,1 --json > $j 2>>$R/bench.log
      python3 bench/ab-summary.py "$j" "$k $row" | tee -a $OUT/sum.txt
      echo "  ($((SECONDS-S)) s)"
    done
  done
fi
if [[ $STAGE == *tests* ]]; then
  OMP_NUM_THREADS=4 ctest --test-dir build-cuda -L gpu -j 4 --output-on-failure --no-tests=error > $OUT/ctest-gpu.log 2>&1
  tail -4 $OUT/ctest-gpu.log; echo "tests $((SECONDS-S)) s"
fi
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
