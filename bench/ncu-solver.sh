#!/usr/bin/env bash
# Nsight Compute on the kernels of one solve (GPU machine). After a build of the cuda preset, from
# the repository root:
#
#   OUT=<dir> KERNELS=<regex> bash bench/ncu-solver.sh [gluon bench solver flags...]
#
# One `gluon bench solver` run fills the tune cache; ncu then profiles, from a second run, the first
# COUNT (default 6) launches after SKIP (default 40: past the warm-up solve's tuning) of the kernels
# whose demangled name matches KERNELS (default: every reduction, which includes the staggered
# dslash with CG's dot, and the x/p update). Speed of light, memory, occupancy, scheduler and warp states: $OUT/ncu-solver.txt, and
# the headline lines on stdout. Default solve: staggered, double, 32^4, tol 1e-10.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:?set OUT to a directory for the results}
GLUON=${GLUON:-build-cuda/bin/gluon}
mkdir -p "$OUT"
export GLUON_TUNE_CACHE=${GLUON_TUNE_CACHE:-$OUT/tunecache.json}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[[ -n "$NCU" ]] || { echo "ncu not found"; exit 1; }
args=(bench solver --backend cuda "$@")
[[ $# -gt 0 ]] || args+=(--operator staggered --mass 0.05 --precision double --recon 12 --tol 1e-10 --lattice 32,32,32,32)
"$GLUON" "${args[@]}" >"$OUT/solver-untimed.txt" 2>&1 || exit 1
"$NCU" --clock-control none --kernel-name-base demangled \
  --kernel-name regex:"${KERNELS:-reduce_kernel|AxpyZpbxK}" \
  --launch-skip "${SKIP:-40}" --launch-count "${COUNT:-6}" \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section SchedulerStats \
  --section WarpStateStats --section LaunchStats \
  "$GLUON" "${args[@]}" >"$OUT/ncu-solver.txt" 2>&1
rc=$?
grep -E "^  [a-z_:<].*\(|Duration|DRAM Throughput|Memory Throughput|Grid Size|Block Size|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Registers Per" \
  "$OUT/ncu-solver.txt" | cut -c1-180
exit $rc
