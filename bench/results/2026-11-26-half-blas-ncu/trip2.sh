#!/usr/bin/env bash
# Call 2 (GPU machine, carry .deps): half-precision reductions summing a site in float (SiteSum),
# A/B in one call. Builds the cuda preset (new), runs the GPU tests, keeps that binary, reverts
# the change (.deps/site-sum.patch) and rebuilds (base), then runs double-half solves: Wilson and
# clover BiCGstab, Wilson CGNR, staggered CG, 32^4, tol 1e-10, two rounds with the binaries'
# order swapped; then GLUON_PROFILE=1 of the Wilson double-half BiCGstab with each binary.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export GLUON_TESTDATA=$PWD/.deps/testdata
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
cp build-cuda/bin/gluon /tmp/gluon-new
patch -R -p1 <.deps/site-sum.patch >>$R/stdout.txt 2>&1
cmake --build build-cuda -j 16 >$R/rebuild.log 2>&1 || { tail -30 $R/rebuild.log; exit 1; }
cp build-cuda/bin/gluon /tmp/gluon-base
patch -p1 <.deps/site-sum.patch >>$R/stdout.txt 2>&1
echo "base rebuilt at $SECONDS s" >>$R/stdout.txt
rows=("wilson bicgstab half --kappa 0.12" "clover bicgstab half --kappa 0.12 --csw 1.0"
      "wilson cgnr half --kappa 0.12" "staggered cg half --mass 0.05")
run() {  # binary-name round row...
  local b=$1 round=$2 op=$3 solver=$4 sloppy=$5; shift 5
  local f=$R/gpu/ab-$op-$solver-$sloppy-$b-r$round.json
  GLUON_TUNE_CACHE=$R/gpu/tunecache-$b.json /tmp/gluon-$b bench solver --backend cuda --operator $op "$@" \
    --solver $solver --precision double --sloppy-precision $sloppy --recon 12 --tol 1e-10 \
    --lattice 32,32,32,32 --json >$f 2>>$R/gpu/bench.log || echo "FAIL $f" >>$R/stdout.txt
  python3 -c "
import json; j=json.load(open('$f'))
print(f\"$op $solver $sloppy $b r$round it {j['iterations']} res {j['true_residual']:.2e} {j['seconds']*1e3:8.2f} ms {j['gflops']:8.1f} GFLOP/s {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:8.1f}\")" >>$R/summary.txt 2>&1
}
for round in 1 2; do
  order="new base"; [[ $round == 2 ]] && order="base new"
  for row in "${rows[@]}"; do
    for b in $order; do run $b $round $row; done
  done
done
echo "ab done at $SECONDS s" >>$R/stdout.txt
for b in new base; do
  GLUON_PROFILE=1 GLUON_TUNE_CACHE=$R/gpu/tunecache-$b.json /tmp/gluon-$b bench solver --backend cuda --operator wilson \
    --kappa 0.12 --solver bicgstab --precision double --sloppy-precision half --recon 12 --tol 1e-10 \
    --lattice 32,32,32,32 >$R/gpu/profile-wilson-half-$b.txt 2>&1
done
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
cat "$R/stdout.txt"; tail -3 "$R/gpu/ctest-gpu.log"; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
cat $R/summary.txt; head -14 $R/gpu/profile-wilson-half-new.txt; head -14 $R/gpu/profile-wilson-half-base.txt
echo "total $SECONDS s"
