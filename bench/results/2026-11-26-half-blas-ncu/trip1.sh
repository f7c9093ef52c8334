#!/usr/bin/env bash
# Call 1 (GPU machine, carry .deps): Nsight Compute on the half-precision BLAS kernels of a
# double-half Wilson BiCGstab (32^4, tol 1e-10): why the half cdot_norm2 and bicgstab_update run at
# about half the copy rate while bicgstab_p and bicgstab_s run near it
# (../2026-11-26-blas-floors/). Then the same kernels of the double solve, for comparison.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } >$R/machine.txt 2>&1
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
{ cmake --preset cuda >$R/configure.log 2>&1 && cmake --build build-cuda -j 16 --target gluon >$R/build.log 2>&1; } ||
  { tail -30 $R/build.log; exit 1; }
echo "built at $SECONDS s"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
export GLUON_TUNE_CACHE=$R/tunecache.json
for sloppy in half none; do
  args=(bench solver --backend cuda --operator wilson --kappa 0.12 --solver bicgstab --precision double
        --sloppy-precision $sloppy --recon 12 --tol 1e-10 --lattice 32,32,32,32)
  build-cuda/bin/gluon "${args[@]}" >$R/untimed-$sloppy.txt 2>&1
  st=short; [[ $sloppy == none ]] && st=double
  timeout 200 "$NCU" --clock-control none --kernel-name-base demangled \
    --kernel-name regex:"(CdotK|BicgUpdateK|BicgPK|CaxpyK)<gluon::qcd::SpinorAccessor<$st, \\(int\\)4" \
    --launch-skip 8 --launch-count 8 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    build-cuda/bin/gluon "${args[@]}" >$R/ncu-$sloppy.txt 2>&1
  echo "ncu $sloppy rc $? at $SECONDS s"
done
tar czf "$OUT/res.tgz" -C /tmp res
for f in $R/ncu-half.txt $R/ncu-none.txt; do
  echo "== $f"
  grep -E "^  [a-z_:<].*\(|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Grid Size|Block Size|Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Stall|Issue Slots Busy|uncoalesced|excessive" $f | cut -c1-170 | head -150
done
echo "total $SECONDS s"
