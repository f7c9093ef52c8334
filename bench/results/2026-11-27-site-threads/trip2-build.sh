#!/usr/bin/env bash
# Trip 2, call 1 (tree 5c36ce3, on an H200): build `gluon` and `gpu_dirac_wilson_test` (the two-thread kernel also in
# half storage) in build-cuda; trip2-run.sh follows on the same warm machine.
S=$SECONDS; export PATH=/usr/local/cuda/bin:$PATH; R=$OUT; mkdir -p $R
{ cmake --preset cuda > $R/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_dirac_wilson_test -j 16 > $R/build.log 2>&1; } ||
  { grep -E "error" $R/build.log | head -30; tail -30 $R/build.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $R/build.log
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
