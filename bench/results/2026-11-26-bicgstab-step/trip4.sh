#!/usr/bin/env bash
# Call 4: the solve tables of the final tree (bench/solver-gpu.sh PARTS="build solver cgnr":
# BiCGstab and CG rows, CGNR rows, each in double, double-single, double-half). The build step
# is a no-op on trip3's warm machine and a full build on a fresh one (the machine is given back
# after 30 minutes held).
set -u
R=/tmp/res3; mkdir -p $R/gpu
export GLUON_TESTDATA=$PWD/.deps/testdata
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >$R/machine4.txt 2>&1
PARTS="build solver cgnr" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout4.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout4.txt"
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res4.tgz" -C /tmp res3
tail -5 "$R/stdout4.txt"; grep solver $R/gpu/summary.txt
echo "total $SECONDS s"
