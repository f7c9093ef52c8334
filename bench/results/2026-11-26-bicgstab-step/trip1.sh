#!/usr/bin/env bash
# Call 1 (GPU machine, carry .deps): build the cuda preset with bicgstab_step (new), the GPU tests;
# then the base (.deps/bicgstab-step.patch reversed: x/r update and p update as two kernels, <r0, r>
# summed from r), and BiCGstab solves of both binaries interleaved: Wilson, clover (asymmetric,
# symmetric) in double, double-single, double-half, 32^4, tol 1e-10, two rounds; then the Wilson
# double and double-half solves of each with GLUON_PROFILE=1.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export GLUON_TESTDATA=$PWD/.deps/testdata
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
cp build-cuda/bin/gluon /tmp/gluon-new
patch -R -p1 < .deps/bicgstab-step.patch >>"$R/stdout.txt" 2>&1
cmake --build build-cuda -j 16 --target gluon >$R/gpu/build-base.log 2>&1 || tail -30 $R/gpu/build-base.log >>"$R/stdout.txt"
cp build-cuda/bin/gluon /tmp/gluon-base
patch -p1 < .deps/bicgstab-step.patch >>"$R/stdout.txt" 2>&1
echo "base built at $SECONDS s" >>"$R/stdout.txt"
rows=("wilson asymmetric" "clover asymmetric" "clover symmetric")
for round in 1 2; do
  for row in "${rows[@]}"; do
    read -r op pc <<<"$row"
    for sloppy in none single half; do
      for bin in base new; do
        f=$R/gpu/ab-$op-$pc-$sloppy-$bin-r$round.json
        GLUON_TUNE_CACHE=$R/gpu/tunecache-$bin.json /tmp/gluon-$bin bench solver --backend cuda --operator $op \
          --kappa 0.12 --csw 1.0 --clover-pc $pc --solver bicgstab --precision double --sloppy-precision $sloppy \
          --recon 12 --tol 1e-10 --lattice 32,32,32,32 --json >$f 2>>$R/gpu/bench.log || echo "FAIL $f" >>$R/stdout.txt
        python3 -c "
import json,sys; j=json.load(open('$f'))
print(f\"$op $pc $sloppy $bin r$round it {j['iterations']} res {j['true_residual']:.2e} {j['seconds']*1e3:8.2f} ms {j['gflops']:8.1f} GFLOP/s {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:8.1f}\")" >>$R/summary.txt 2>&1
      done
    done
  done
done
echo "ab done at $SECONDS s" >>$R/stdout.txt
for bin in base new; do
  for sloppy in none half; do
    GLUON_TUNE_CACHE=$R/gpu/tunecache-$bin.json GLUON_PROFILE=1 /tmp/gluon-$bin bench solver --backend cuda \
      --operator wilson --kappa 0.12 --solver bicgstab --precision double --sloppy-precision $sloppy --recon 12 \
      --tol 1e-10 --lattice 32,32,32,32 >$R/gpu/profile-wilson-$sloppy-$bin.txt 2>&1
  done
done
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
cat "$R/stdout.txt"; tail -3 "$R/gpu/ctest-gpu.log"; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
cat $R/summary.txt
echo "total $SECONDS s"
