#!/usr/bin/env bash
# The GPU tests and issue 3's dslash and solver tables on one GPU from a CUDA build made on the development VM
# (bench/gpu-pack-binaries.sh; the build's commit is in build-gpu/BUILD, copied to $OUT/machine.txt),
# carried in build-gpu/: no build in the call, so a session short of device time still gets its
# tests and benchmarks.
#   DEADLINE=<s> OUT=<dir> bash bench/results/2026-12-07-carried-gpu/trip.sh   (carry build-gpu, .deps)
# Every GPU test first (staggered and solver ones, then the rest), then the dslash and solver
# tables (bench/solver-gpu.sh, PARTS default "dslash solver", fresh tune cache) in what the call
# has left.
set -u
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0
source bench/gpu-carried-binaries.sh || exit 1
echo "unpacked at $((SECONDS - S)) s"
left() { echo $(( ${DEADLINE:-560} - (SECONDS - S) )); }
(cd $G && OMP_NUM_THREADS=4 timeout $(left) ctest -L gpu -j 4 --timeout 300 -R "Staggered|Solver|solver|staggered" > $OUT/ctest-gpu-1.log 2>&1; tail -3 $OUT/ctest-gpu-1.log)
(cd $G && OMP_NUM_THREADS=4 timeout $(left) ctest -L gpu -j 4 --timeout 300 -E "Staggered|Solver|solver|staggered" > $OUT/ctest-gpu-2.log 2>&1; tail -3 $OUT/ctest-gpu-2.log)
grep -hE "Failed|\*\*\*" $OUT/ctest-gpu-*.log | grep -v Skipped | head
echo "tests done at $((SECONDS - S)) s"
if (( $(left) > 60 )); then
  GLUON=$G/bin/gluon OUT=$OUT/bench PARTS="${PARTS:-dslash solver}" timeout $(( $(left) - 10 )) bash bench/solver-gpu.sh > $OUT/tables.log 2>&1
  tail -20 $OUT/bench/summary.txt 2>/dev/null
fi
echo "done at $((SECONDS - S)) s"
