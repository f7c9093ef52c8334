#!/usr/bin/env bash
# The clover field prefetched to L2 part-way through a site's hops (GLUON_CLOVER_PREFETCH = 1-4:
# before hop<0-3>; 0 none) on one GPU: `gluon bench dslash --ab-env` times all five settings in one
# process, rounds alternating the order; one process a clover row, ROUNDS processes a row.
# STAGE=build builds the cuda preset's gluon there (toml++ from .deps).
#   STAGE=build|dslash|solver (default build dslash solver), ROUNDS (default 2)
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
STAGE=${STAGE:-build dslash solver}
if [[ $STAGE == *build* ]]; then
  bash bench/gpu-build.sh gluon || exit 1
fi
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt 2>/dev/null
R=$OUT/r; mkdir -p $R/tc
if [[ $STAGE == *dslash* ]]; then
  for k in $(seq 1 ${ROUNDS:-2}); do
    for row in "clover single 8" "clover single 12" "clover double 12" "clover half 12" "clover half 8" "wilson single 8"; do
      set -- $row; j=$R/dslash-$k-$1-$2-$3.json
      GLUON_TUNE_CACHE=$R/tc/$k-$1-$2-$3.json timeout 200 $B/gluon bench dslash --operator $1 --precision $2 --recon $3 \
        --lattice 32,32,32,32 --iterations 100 --ab-env GLUON_CLOVER_PREFETCH=0,1,2,3,4 --json > $j 2>>$R/bench.log
      python3 bench/ab-summary.py "$j" "$k $row" | tee -a $OUT/sum.txt
    done
  done
  echo "dslash $((SECONDS-S)) s"
fi
if [[ $STAGE == *solver* ]]; then
  for pf in 0 3 0 3; do
    for s in "clover cgnr single" "clover bicgstab none" "clover cgnr half"; do
      set -- $s; j=$R/solver-$pf-$1-$2-$3-$SECONDS.json
      GLUON_CLOVER_PREFETCH=$pf GLUON_TUNE_CACHE=$R/tc/solver-$pf-$1-$2-$3.json timeout 90 \
        $B/gluon bench solver --backend cuda --operator $1 --solver $2 --precision double --sloppy-precision $3 \
        --recon 12 --tol 1e-10 --lattice 32,32,32,32 --json > $j 2>>$R/bench.log
      python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"solver pf $pf {'$1':>7} {j['precision']:>13} {j['solver']:>9} it {j['iterations']:5d} res {j['true_residual']:.2e} {j['seconds']:7.4f} s {j['gflops']:7.1f} GFLOP/s = {100*j['fraction_of_operator']:5.1f}% of op\")" $j | tee -a $OUT/sum.txt
    done
  done
  echo "solver $((SECONDS-S)) s"
fi
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
