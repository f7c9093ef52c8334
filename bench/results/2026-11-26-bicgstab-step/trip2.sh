#!/usr/bin/env bash
# Call 2 (same warm machine as trip1.sh): BiCGstab solves of both binaries interleaved: Wilson,
# clover (asymmetric, symmetric) in double, double-single, double-half, 32^4, tol 1e-10, two
# rounds, one tune cache per binary; then the Wilson double and double-half solves of each with
# GLUON_PROFILE=1.
set -u
R=/tmp/res2; rm -rf $R; mkdir -p $R/gpu
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >$R/machine.txt 2>&1
rows=("wilson asymmetric" "clover asymmetric" "clover symmetric")
for round in 1 2; do
  for row in "${rows[@]}"; do
    read -r op pc <<<"$row"
    for sloppy in none single half; do
      for bin in base new; do
        f=$R/gpu/ab-$op-$pc-$sloppy-$bin-r$round.json
        GLUON_TUNE_CACHE=$R/gpu/tunecache-$bin.json build-cuda/gluon-$bin bench solver --backend cuda --operator $op \
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
    GLUON_TUNE_CACHE=$R/gpu/tunecache-$bin.json GLUON_PROFILE=1 build-cuda/gluon-$bin bench solver --backend cuda \
      --operator wilson --kappa 0.12 --solver bicgstab --precision double --sloppy-precision $sloppy --recon 12 \
      --tol 1e-10 --lattice 32,32,32,32 >$R/gpu/profile-wilson-$sloppy-$bin.txt 2>&1
  done
done
tar czf "$OUT/res2.tgz" -C /tmp res2
cat $R/stdout.txt 2>/dev/null; cat $R/summary.txt
echo "total $SECONDS s"
