#!/usr/bin/env bash
# Call 3 (same warm machine): Nsight Compute on the Wilson single r8 and r12 dslash (trip2's ncu
# step matched no kernel: its name regex was too strict).
set -u
R=/tmp/res3; rm -rf $R; mkdir -p $R/gpu
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
for rc in 8 12; do
  args=(bench dslash --backend cuda --operator wilson --precision single --recon $rc --lattice 32,32,32,32)
  GLUON_TUNE_CACHE=$R/gpu/tunecache.json build-cuda/gluon-new "${args[@]}" >$R/gpu/dslash-r$rc.txt 2>&1
  GLUON_TUNE_CACHE=$R/gpu/tunecache.json timeout 200 "$NCU" --clock-control none --kernel-name-base demangled \
    --kernel-name regex:"WilsonDslashKernel<float.*Reconstruct.$rc>" --launch-skip 5 --launch-count 2 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    build-cuda/gluon-new "${args[@]}" >$R/gpu/ncu-r$rc.txt 2>&1
  echo "ncu r$rc rc $? at $SECONDS s"
done
tar czf "$OUT/res.tgz" -C /tmp res3
for rc in 8 12; do echo "== r$rc"; grep -E "dslash|copy" $R/gpu/dslash-r$rc.txt | head -4; grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Issued Warp Per|No Eligible|Executed Ipc|Warp Cycles Per Issued|Block Size|Grid Size|Executed Instructions  |WARN" $R/gpu/ncu-r$rc.txt | cut -c1-200 | head -40; done
echo "total $SECONDS s"
