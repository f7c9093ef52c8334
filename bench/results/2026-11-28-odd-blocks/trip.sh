#!/usr/bin/env bash
# The tuner's blocks of an odd number of warps (GLUON_TUNE_ODD_BLOCKS, launch.cuh) on one GPU:
# each row per call at 32^4, one process a row, on (the candidates added) against off (the list
# before), alternating, each process with its own fresh tune cache. STAGE=build builds the cuda
# preset there (toml++ from .deps, scripts/prepare-gpu-carry.sh); the binaries are then those of
# build-cuda/bin, else the ones built on the development VM that travel in build-ab/
# (bench/cpu-ab-binaries.sh unpacks them).
#   STAGE=build|dslash|solver|test (default dslash solver), ROUNDS (default 2), ROWS (dslash rows)
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
STAGE=${STAGE:-dslash solver}
if [[ $STAGE == *build* ]]; then
  bash bench/gpu-build.sh || exit 1
fi
if [ -x build-cuda/bin/gluon ]; then
  B=$PWD/build-cuda/bin; { nproc; lscpu | grep "Model name"; } > $OUT/machine.txt
else
  source bench/cpu-ab-binaries.sh || exit 1
fi
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
R=$OUT/r; mkdir -p $R/tc
if [[ $STAGE == *dslash* ]]; then
  row() {  # round on|off operator precision recon
    local tc=$R/tc/$2-$1-$3-$4-$5.json j=$R/dslash-$2-$1-$3-$4-$5.json
    GLUON_TUNE_ODD_BLOCKS=$([ $2 = on ] && echo 1 || echo 0) GLUON_TUNE_CACHE=$tc timeout 120 $B/gluon bench dslash \
      --lattice 32,32,32,32 --iterations 200 --json --operator $3 --precision $4 --recon $5 > $j 2>>$R/bench.log
    python3 - "$j" "$tc" "$1" "$2" "$3 $4 $5" <<'PY' | tee -a $OUT/sum.txt
import json, sys
d = json.load(open(sys.argv[1]))
blocks = sorted({(e['kernel'].split('/')[0], e['block']) for e in json.load(open(sys.argv[2]))['entries']
                 if 'dslash' in e['kernel'] and not e['kernel'].endswith('/variant')})
print('%s %-3s %-22s %8.1f GFLOP/s %.3f of copy b2b %.3f %6.1f us copy %.0f  blocks %s' % (sys.argv[3], sys.argv[4], sys.argv[5],
      d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000 * d['dslash_ms'], d['copy_gbs'],
      ' '.join('%s:%d' % b for b in blocks)))
PY
  }
  IFS=, read -ra rows <<< "${ROWS:-wilson single 8,clover single 8,wilson single 12,clover single 12,wilson double 12,clover double 12,wilson half 12,clover half 12,staggered single 12,improved-staggered single 12}"
  for k in $(seq 1 ${ROUNDS:-2}); do
    for r in "${rows[@]}"; do
      if [ $((k % 2)) = 1 ]; then row $k on $r; row $k off $r; else row $k off $r; row $k on $r; fi
    done
  done
  echo "dslash $((SECONDS-S)) s"
fi
if [[ $STAGE == *solver* ]]; then
  solve() {  # on|off operator solver sloppy
    local j=$R/solver-$1-$2-$3-$4.json
    GLUON_TUNE_ODD_BLOCKS=$([ $1 = on ] && echo 1 || echo 0) GLUON_TUNE_CACHE=$R/tc/solver-$1-$2-$3-$4.json timeout 90 \
      $B/gluon bench solver --backend cuda --operator $2 --solver $3 --precision double --sloppy-precision $4 \
      --recon 12 --tol 1e-10 --lattice 32,32,32,32 --json > $j 2>>$R/bench.log
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"solver $1 {'$2':>19} {j['precision']:>13} {j['solver']:>9} it {j['iterations']:5d} res {j['true_residual']:.2e} {j['seconds']:7.4f} s {j['gflops']:7.1f} GFLOP/s = {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:7.1f}\")" $j | tee -a $OUT/sum.txt
  }
  for s in "wilson cgnr single" "clover cgnr single" "staggered cg single" "wilson bicgstab single" "wilson cgnr half" "wilson cgnr none"; do
    solve on $s; solve off $s
  done
  echo "solver $((SECONDS-S)) s"
fi
if [[ $STAGE == *test* ]]; then
  export GLUON_TUNE_CACHE=$R/tc/tests.json GLUON_TUNE_ODD_BLOCKS=1
  [ -d .deps/testdata/gauge ] && export GLUON_TESTDATA=$PWD/.deps/testdata
  for t in $B/gpu_*_test; do
    n=$(basename $t); timeout 300 $t > $R/$n.log 2>&1
    echo "$n rc $? $(grep -E '^\[  (PASSED|FAILED)' $R/$n.log | tr '\n' ' ')" | tee -a $OUT/sum.txt
  done
  echo "tests $((SECONDS-S)) s"
fi
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
