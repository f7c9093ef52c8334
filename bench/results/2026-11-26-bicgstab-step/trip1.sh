#!/usr/bin/env bash
# Call 1 (GPU machine, carry .deps): build the cuda preset with bicgstab_step (new), the GPU tests;
# then the base (.deps/bicgstab-step.patch reversed: x/r update and p update as two kernels, <r0, r>
# summed from r). Both binaries are kept in build-cuda/ for trip2.sh.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export GLUON_TESTDATA=$PWD/.deps/testdata
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
cp build-cuda/bin/gluon build-cuda/gluon-new
patch -R -p1 < .deps/bicgstab-step.patch >>"$R/stdout.txt" 2>&1
cmake --build build-cuda -j 16 --target gluon >$R/gpu/build-base.log 2>&1 || tail -30 $R/gpu/build-base.log >>"$R/stdout.txt"
cp build-cuda/bin/gluon build-cuda/gluon-base
patch -p1 < .deps/bicgstab-step.patch >>"$R/stdout.txt" 2>&1
echo "base built at $SECONDS s" >>"$R/stdout.txt"
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
cat "$R/stdout.txt"; tail -3 "$R/gpu/ctest-gpu.log"; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
echo "total $SECONDS s"
