#!/usr/bin/env bash
# Call 1 (GPU machine, carry .deps): build the cuda preset, the GPU tests, then CG's batched
# solution update against the unbatched one on the same machine, interleaved: gluon bench solver
# with --x-update-batch 1, 4 and 8 for Wilson and clover CGNR, staggered and improved staggered CG,
# each in double, double-single and double-half (32^4, tol 1e-10), two rounds; then the Wilson
# double CGNR solve with GLUON_PROFILE=1 at batch 1 and 4.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export GLUON_TESTDATA=$PWD/.deps/testdata
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
G=build-cuda/bin/gluon
export GLUON_TUNE_CACHE=$R/gpu/tunecache.json
rows=("wilson cgnr --kappa 0.12" "clover cgnr --kappa 0.12 --csw 1.0" "staggered cg --mass 0.05" "improved-staggered cg --mass 0.05")
for round in 1 2; do
  for row in "${rows[@]}"; do
    read -r op solver args <<<"$row"
    for sloppy in none single half; do
      for batch in 1 4 8; do
        f=$R/gpu/ab-$op-$solver-$sloppy-b$batch-r$round.json
        $G bench solver --backend cuda --operator $op $args --solver $solver --precision double \
          --sloppy-precision $sloppy --recon 12 --tol 1e-10 --lattice 32,32,32,32 --x-update-batch $batch \
          --json >$f 2>>$R/gpu/bench.log || echo "FAIL $f" >>$R/stdout.txt
        python3 -c "
import json,sys; j=json.load(open('$f'))
print(f\"$op $solver $sloppy b$batch r$round it {j['iterations']} res {j['true_residual']:.2e} {j['seconds']*1e3:8.2f} ms {j['gflops']:8.1f} GFLOP/s {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:8.1f}\")" >>$R/summary.txt 2>&1
      done
    done
  done
done
echo "ab done at $SECONDS s" >>$R/stdout.txt
for batch in 1 4; do
  GLUON_PROFILE=1 $G bench solver --backend cuda --operator wilson --kappa 0.12 --solver cgnr --precision double \
    --recon 12 --tol 1e-10 --lattice 32,32,32,32 --x-update-batch $batch >$R/gpu/profile-cgnr-wilson-b$batch.txt 2>&1
done
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
cat "$R/stdout.txt"; tail -3 "$R/gpu/ctest-gpu.log"; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
cat $R/summary.txt
echo "total $SECONDS s"
