#!/usr/bin/env bash
# Call 4 (same warm machine as trip3.sh): the solve tables of the final tree (bench/solver-gpu.sh
# PARTS="solver cgnr": BiCGstab and CG rows, CGNR rows, each in double, double-single, double-half).
set -u
R=/tmp/res3
PARTS="solver cgnr" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout4.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout4.txt"
tar czf "$OUT/res4.tgz" -C /tmp res3
tail -5 "$R/stdout4.txt"; grep solver $R/gpu/summary.txt
echo "total $SECONDS s"
