#!/usr/bin/env bash
# Issue 3's GPU standing read again at this tree on one H200 (2026-12-07): the host-side changes
# after ae0b989 (staggered launch set-up, env switches, multi-shift CLI) had only been compiled for
# CUDA. PART=build: `bash bench/gpu-build.sh` of gluon and the GPU tests, keeping ninja's per-object compile times
# ($OUT/r/ninja-log.txt; the device builds had grown from ~360 s to 505-551 s), then every GPU
# test in what the call has left. PART=rest: every GPU test, then the dslash table and the solver
# table (bench/solver-gpu.sh), fresh tune cache. Everything lands in $OUT/r.tar.
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
# Only what the GPU tests and the benchmarks run (the CPU unit and MPI tests are CI's).
TARGETS="gluon $(ls tests/gpu/*_test.cpp | sed 's|tests/gpu/\(.*\)\.cpp|gpu_\1|' | tr '\n' ' ')"
if [[ $PART == build ]]; then
  timeout $((${DEADLINE:-575} - 15)) bash bench/gpu-build.sh $TARGETS; rc=$?
  cp build-cuda/.ninja_log $R/ninja-log.txt 2>/dev/null
  nproc > $R/nproc.txt
  [[ $rc == 0 ]] || { tar -C $OUT -cf $OUT/r.tar r; exit 1; }
  # Every GPU test in what the call has left (the staggered and solver ones first).
  (cd build-cuda && OMP_NUM_THREADS=4 timeout $((${DEADLINE:-575} - (SECONDS - S))) ctest -L gpu -j 4 --timeout 300 -R "Staggered|Solver|solver|staggered" > $R/ctest-gpu-1.log 2>&1; tail -3 $R/ctest-gpu-1.log)
  (cd build-cuda && OMP_NUM_THREADS=4 timeout $((${DEADLINE:-575} - (SECONDS - S))) ctest -L gpu -j 4 --timeout 300 -E "Staggered|Solver|solver|staggered" > $R/ctest-gpu-2.log 2>&1; tail -3 $R/ctest-gpu-2.log)
  grep -hE "Failed|\*\*\*" $R/ctest-gpu-*.log | grep -v Skipped | head
else
  (cd build-cuda && OMP_NUM_THREADS=4 ctest -L gpu -j 4 --timeout 300 > $R/ctest-gpu.log 2>&1; tail -3 $R/ctest-gpu.log)
  grep -E "Failed|\*\*\*" $R/ctest-gpu.log | head
  echo "tests done $((SECONDS - S)) s"
  OUT=$R PARTS="${PARTS:-dslash solver}" timeout $((580 - (SECONDS - S))) bash bench/solver-gpu.sh > $R/solver-gpu.log 2>&1
  tail -40 $R/summary.txt 2>/dev/null
fi
echo "done $((SECONDS - S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
