#!/usr/bin/env bash
# Ad-hoc, one nvidia-h200 call with no build (NOT RUN this session: no device time left): the final code's binary (9dd232a, built on the
# Debian VM in a clean clone's build-cuda, carried stripped and xz-compressed as
# .deps/prebuilt/gluon.xz) runs the Wilson and clover double solves (BiCGstab, CGNR) and the Wilson
# double CGNR with a profile, to check that the folded kernels are back to their old times.
set -u
R=$OUT/chk; mkdir -p $R
xz -dc .deps/prebuilt/gluon.xz >/tmp/gluon && chmod +x /tmp/gluon
ldd /tmp/gluon | grep "not found" >$R/ldd-missing.txt
export GLUON_TUNE_CACHE=$R/tunecache.json NCCL_NVLS_ENABLE=0
for solver in cgnr bicgstab; do
  for op in "wilson --kappa 0.12" "clover --kappa 0.12 --csw 1.0"; do
    n=$(echo $op | cut -d' ' -f1)
    /tmp/gluon bench solver --backend cuda --operator $op --solver $solver --precision double --sloppy-precision none \
      --recon 12 --tol 1e-10 --lattice 32,32,32,32 --json >$R/$solver-$n-none.json 2>>$R/err.txt
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"{j['operator']:>7} {j['solver']:>9} it {j['iterations']} res {j['true_residual']:.2e} {j['seconds']:.4f} s {100*j['fraction_of_operator']:.1f}% of op {j['operator_gflops']:.1f}\")" $R/$solver-$n-none.json | tee -a $R/summary.txt
  done
done
GLUON_PROFILE=1 /tmp/gluon bench solver --backend cuda --operator wilson --kappa 0.12 --solver cgnr --precision double \
  --sloppy-precision none --recon 12 --tol 1e-10 --lattice 32,32,32,32 >$R/profile-cgnr-wilson-none.txt 2>&1
head -8 $R/profile-cgnr-wilson-none.txt
tar czf $OUT/chk.tgz -C $OUT chk && rm -rf $R
echo "total $SECONDS s"
