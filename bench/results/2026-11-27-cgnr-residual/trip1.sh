#!/usr/bin/env bash
# Trip 1 (fresh GPU machine): build gluon and gpu_solver_test at this tree, run the GPU solver
# tests, then build the base (this folder's cgnr-residual.patch reversed: CGNR's reliable update
# as M^+ b - M^+ M x in the outer precision) into build-cuda/ab/gluon-base for trip2.sh.
export PATH=/usr/local/cuda/bin:$PATH; S=$SECONDS; D=bench/results/2026-11-27-cgnr-residual
{ cmake --preset cuda > $OUT/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_solver_test -j 16 > $OUT/build.log 2>&1; } ||
  { grep error $OUT/build.log | head -30; tail $OUT/configure.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $OUT/build.log $OUT/configure.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt; git log -1 --format=%H | tee -a $OUT/gpu.txt
mkdir -p build-cuda/ab && cp build-cuda/bin/gluon build-cuda/ab/gluon-new
(timeout 240 build-cuda/bin/gpu_solver_test > $OUT/gpu-solver-test.log 2>&1; echo "gpu_solver_test rc $? $((SECONDS-S)) s")
grep -E "^\[  (PASSED|FAILED)|FAILED|Failure|OK \]" $OUT/gpu-solver-test.log | head -20
patch -R -p1 < $D/cgnr-residual.patch > /dev/null && cmake --build build-cuda --target gluon -j 16 > $OUT/build-base.log 2>&1 &&
  cp build-cuda/bin/gluon build-cuda/ab/gluon-base && patch -p1 < $D/cgnr-residual.patch > /dev/null && echo "base built $((SECONDS-S)) s" ||
  { grep error $OUT/build-base.log | head; echo "base build failed"; }
rm -f $OUT/build-base.log
