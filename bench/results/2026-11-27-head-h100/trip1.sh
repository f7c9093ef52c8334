#!/usr/bin/env bash
# Trip 1 (one nvidia-h100-x1 call, fresh machine): gluon and gpu_solver_test built, that test run
# (its CGNR/CGNE loop is new), then issue 3's table at 32^4 with a fresh tune cache
# (bench/solver-gpu.sh's dslash, solver and cgnr parts) and Wilson CGNE. Everything in $OUT/r.tar,
# the table in $OUT/summary.txt.
export PATH=/usr/local/cuda/bin:$PATH; S=$SECONDS; R=$OUT/r; mkdir -p $R
{ cmake --preset cuda > $R/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_solver_test -j 16 > $R/build.log 2>&1; } ||
  { grep error $R/build.log | head -30; tail $R/configure.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $R/build.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt; build-cuda/bin/gluon info > $R/info.txt 2>&1
GLUON_TUNE_CACHE=$R/test-tunecache.json timeout 120 build-cuda/bin/gpu_solver_test > $R/gpu-solver-test.log 2>&1; echo "gpu_solver_test rc $?"
grep -E "^\[  (PASSED|FAILED)|Failure" $R/gpu-solver-test.log | head
OUT=$R PARTS="dslash solver cgnr" timeout $((560 - (SECONDS - S))) bash bench/solver-gpu.sh > $R/stdout.txt 2>&1
for sloppy in none half; do
  f=$R/cgne-wilson-$sloppy.json
  timeout 30 build-cuda/bin/gluon bench solver --backend cuda --operator wilson --kappa 0.12 --solver cgne \
    --precision double --sloppy-precision $sloppy --recon 12 --tol 1e-10 --lattice 32,32,32,32 --json > $f 2>>$R/bench.log &&
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"solver {'wilson':>19} {j['precision']:>13} {j['solver']:>9} it {j['iterations']:5d} res {j['true_residual']:.2e} {j['seconds']:7.3f} s {j['gflops']:7.1f} GFLOP/s = {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:7.1f}\")" $f >> $R/summary.txt
done
echo "table done $((SECONDS-S)) s"; cp $R/summary.txt $OUT/summary.txt; tar -C $OUT -cf $OUT/r.tar r && rm -rf $R; cat $OUT/summary.txt
