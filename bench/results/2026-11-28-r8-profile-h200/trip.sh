#!/usr/bin/env bash
# Nsight Compute on the single-precision Wilson and clover hops (r8 and r12) of the committed tree
# on one H200: the tuned variant each runs at 32^4 (the tune cache is filled by a plain run first,
# so that the profiled launches are the kept variant, not the tuner's trials).
set -u
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
bash bench/gpu-build.sh gluon || exit 1
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
R=$OUT/r; mkdir -p $R
for row in "wilson 8" "clover 8" "wilson 12" "clover 12"; do
  set -- $row
  args=(bench dslash --backend cuda --operator $1 --precision single --recon $2 --lattice 32,32,32,32 --iterations 40)
  GLUON_TUNE_CACHE=$R/tc-$1-$2.json build-cuda/bin/gluon "${args[@]}" --json > $R/dslash-$1-$2.json 2>$R/dslash-$1-$2.err
  GLUON_TUNE_CACHE=$R/tc-$1-$2.json timeout 150 "$NCU" --clock-control none --kernel-name-base demangled \
    --kernel-name regex:"WilsonDslashKernel<float.*Reconstruct.$2>" --launch-skip 20 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    build-cuda/bin/gluon "${args[@]}" > $R/ncu-$1-$2.txt 2>&1
  echo "== $1 single r$2 (ncu rc $?, $((SECONDS-S)) s)"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('  %.1f GFLOP/s %.3f of copy' % (d['gflops'], d['fraction_of_copy']))" $R/dslash-$1-$2.json
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Issued Warp Per|No Eligible|Executed Ipc Active|Warp Cycles Per Issued|Block Size|Grid Size|Executed Instructions  |Stall Long|Stall Short|Stall Wait|Stall Math|Stall LG|Stall Not Sel|Stall Barrier|Stall MIO" $R/ncu-$1-$2.txt | cut -c1-160 | head -40
done
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
echo "total $((SECONDS-S)) s"
