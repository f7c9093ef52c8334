#!/usr/bin/env bash
# Third nvidia-h200 call (carry .deps), on the final code (the clover apply kernel rebuilt
# block by block): build, GPU tests, one round of the solve table and the CGNR rows.
set -u
R=/tmp/res
mkdir -p "$R"
PARTS="build tests solver cgnr" OUT=$R bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $?" >>"$R/stdout.txt"
tar czf "$OUT/res.tgz" -C /tmp res
grep -E "done after|rc " "$R/stdout.txt"
tail -3 "$R/ctest-gpu.log"
cat "$R/summary.txt"
