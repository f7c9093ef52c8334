#!/usr/bin/env bash
# Nsight Compute on the dslash body kernels (GPU machine; ncu is there, Nsight Systems is not).
# After a build of the cuda preset, from the repository root:
#
#   OUT=<dir> bash bench/ncu-dslash.sh [ROWS_FILE]
#
# For each "operator precision recon" row (default: Wilson single/half r12, clover single r12),
# one `gluon bench dslash` run fills the tune cache (variants and launch shapes chosen), then ncu
# profiles one launch of the chosen body kernel from a second, tuned run: speed of light, memory,
# occupancy, scheduler and warp-state statistics (where the cycles stall). $OUT/ncu-<row>.txt.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:?set OUT to a directory for the results}
GLUON=${GLUON:-build-cuda/bin/gluon}
LATTICE=${LATTICE:-32,32,32,32}
mkdir -p "$OUT"
export GLUON_TUNE_CACHE=${GLUON_TUNE_CACHE:-$OUT/tunecache.json}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[[ -n "$NCU" ]] || { echo "ncu not found"; exit 1; }
rows=${1:-}
[[ -n "$rows" ]] || { rows=$(mktemp); printf 'wilson single 12\nwilson half 12\nclover single 12\n' >"$rows"; }
rc=0
while read -r op prec recon; do
  args=(bench dslash --backend cuda --operator "$op" --precision "$prec" --recon "$recon" --lattice "$LATTICE")
  "$GLUON" "${args[@]}" --iterations 20 >/dev/null 2>&1 || rc=1
  "$NCU" --clock-control none --kernel-name-base demangled --kernel-name regex:"WilsonBody|Staggered" \
    --launch-skip 4 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section SchedulerStats \
    --section WarpStateStats --section LaunchStats --section ComputeWorkloadAnalysis \
    "$GLUON" "${args[@]}" --iterations 10 --warmup 2 >"$OUT/ncu-$op-$prec-$recon.txt" 2>&1 || rc=1
  grep -E "Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|Avg. Active Threads|Warp Cycles Per Issued|stalled" \
    "$OUT/ncu-$op-$prec-$recon.txt" | sed "s/^/$op $prec r$recon: /" | cut -c1-200
done <"$rows"
exit $rc
