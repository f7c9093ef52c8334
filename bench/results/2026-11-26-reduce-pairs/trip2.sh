#!/usr/bin/env bash
# Call 2 (same warm machine as trip1.sh): A/B of the double-half solves (and Wilson double-single),
# two rounds with the binaries' order swapped, then GLUON_PROFILE=1 of the Wilson double-half
# BiCGstab with each binary. Last, Nsight Compute on the Wilson single r8 and r12 dslash (new
# binary): what limits r8.
set -u
R=/tmp/res2; rm -rf $R; mkdir -p $R/gpu
rows=("wilson bicgstab half --kappa 0.12" "clover bicgstab half --kappa 0.12 --csw 1.0"
      "wilson cgnr half --kappa 0.12" "staggered cg half --mass 0.05" "wilson bicgstab single --kappa 0.12")
run() {  # binary-name round row...
  local b=$1 round=$2 op=$3 solver=$4 sloppy=$5; shift 5
  local f=$R/gpu/ab-$op-$solver-$sloppy-$b-r$round.json
  GLUON_TUNE_CACHE=$R/gpu/tunecache-$b.json build-cuda/gluon-$b bench solver --backend cuda --operator $op "$@" \
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
  GLUON_PROFILE=1 GLUON_TUNE_CACHE=$R/gpu/tunecache-$b.json build-cuda/gluon-$b bench solver --backend cuda --operator wilson \
    --kappa 0.12 --solver bicgstab --precision double --sloppy-precision half --recon 12 --tol 1e-10 \
    --lattice 32,32,32,32 >$R/gpu/profile-wilson-half-$b.txt 2>&1
done
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
for rc in 8 12; do
  args=(bench dslash --backend cuda --operator wilson --precision single --recon $rc --lattice 32,32,32,32)
  GLUON_TUNE_CACHE=$R/gpu/tunecache-new.json build-cuda/gluon-new "${args[@]}" >$R/gpu/dslash-r$rc.txt 2>&1
  GLUON_TUNE_CACHE=$R/gpu/tunecache-new.json timeout 150 "$NCU" --clock-control none --kernel-name-base demangled \
    --kernel-name regex:"WilsonDslashKernel<float, \\(gluon::qcd::Reconstruct\\)$rc>, false" \
    --launch-skip 20 --launch-count 2 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    build-cuda/gluon-new "${args[@]}" >$R/gpu/ncu-r$rc.txt 2>&1
  echo "ncu r$rc rc $? at $SECONDS s" >>$R/stdout.txt
done
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res2
cat "$R/stdout.txt"; tail -3 "$R/gpu/ctest-gpu.log"; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
cat $R/summary.txt; head -16 $R/gpu/profile-wilson-half-new.txt; head -16 $R/gpu/profile-wilson-half-base.txt
for rc in 8 12; do echo "== r$rc"; grep -E "Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Issued Warp Per|No Eligible|Executed Ipc|Warp Cycles Per Issued|Block Size|Grid Size|Executed Instructions  " $R/gpu/ncu-r$rc.txt | head -30; done
echo "total $SECONDS s"
