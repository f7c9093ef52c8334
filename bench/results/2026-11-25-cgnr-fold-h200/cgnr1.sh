#!/usr/bin/env bash
# One nvidia-h200 call (carry .deps): build, registers, GPU tests, the dslash table, the solve
# table, the CGNR rows and the profiles; everything lands in one tarball (the device returns at
# most 8 files).
set -u
R=/tmp/res
mkdir -p "$R"
PARTS="build sass tests dslash solver cgnr profile" OUT=$R bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $?" >>"$R/stdout.txt"
tar czf "$OUT/res.tgz" -C /tmp res
grep -E "done after|tests passed|rc " "$R/stdout.txt"
cat "$R/summary.txt"
head -14 "$R/profile-cgnr-wilson-none.txt"
