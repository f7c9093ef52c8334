#!/usr/bin/env bash
# GPU Wilson/clover output sites taken in compact tiles instead of whole x-rows
# (GLUON_GPU_SITE_TILE, src/qcd/dirac/site_tile.h): `gluon bench dslash --ab-env` times every tile
# in one process, rounds alternating the order; then the GPU tests that run the tiles.
#   STAGE=build|dslash|tests (default all), ROWS (default below), TILES, ROUNDS (default 1)
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
STAGE=${STAGE:-build dslash tests}
if [[ $STAGE == *build* ]]; then
  bash bench/gpu-build.sh gluon gpu_dirac_wilson_test gpu_solver_test || exit 1
fi
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt 2>/dev/null
R=$OUT/r; mkdir -p $R/tc
TILES=${TILES:-rows,16x4x2x2,8x4x4x2,8x4x4x4,4x4x4x4}
ROWS=${ROWS:-"wilson single 8;clover single 8;wilson single 12;wilson double 12;clover double 12;wilson half 12;clover half 12"}
if [[ $STAGE == *dslash* ]]; then
  IFS=';' read -ra rows <<< "$ROWS"
  for k in $(seq 1 ${ROUNDS:-1}); do
    for row in "${rows[@]}"; do
      set -- $row; j=$R/dslash-$k-$1-$2-$3-$SECONDS.json
      GLUON_TUNE_CACHE=$R/tc/$k-$1-$2-$3.json timeout 280 $B/gluon bench dslash --operator $1 --precision $2 --recon $3 \
        --lattice 32,32,32,32 --iterations 60 --ab-env GLUON_GPU_SITE_TILE=$TILES --json > $j 2>>$R/bench.log
      python3 bench/ab-summary.py "$j" "$k $row" | tee -a $OUT/sum.txt
      echo "  ($((SECONDS-S)) s)"
    done
  done
fi
if [[ $STAGE == *tests* ]]; then
  (cd build-cuda && timeout 400 ctest -R "gpu_dirac_wilson_test_tile|gpu_solver_test_tile|DiracWilsonGpu.TwoThreads" --output-on-failure > $OUT/ctest.log 2>&1)
  tail -5 $OUT/ctest.log; echo "tests $((SECONDS-S)) s"
fi
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
