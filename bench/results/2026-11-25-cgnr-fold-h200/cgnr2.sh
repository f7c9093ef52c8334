#!/usr/bin/env bash
# Second nvidia-h200 call (carry .deps): build and GPU tests on the final code, then two rounds of
# the solve table and the CGNR rows, each round with a fresh tune cache (so each timed solve
# follows a warm-up solve that had to tune every kernel), and the profiles in round 2.
set -u
R=/tmp/res
mkdir -p "$R"
PARTS="build tests" OUT=$R bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $?" >>"$R/stdout.txt"
for k in 1 2; do
  PARTS="solver cgnr" OUT=$R/round$k bash bench/solver-gpu.sh >>"$R/stdout.txt" 2>&1
  echo "rc $?" >>"$R/stdout.txt"
done
PARTS=profile OUT=$R/round2 bash bench/solver-gpu.sh >>"$R/stdout.txt" 2>&1
tar czf "$OUT/res.tgz" -C /tmp res
grep -E "done after|rc " "$R/stdout.txt"
tail -3 "$R/ctest-gpu.log"
paste -d'\n' "$R/round1/summary.txt" "$R/round2/summary.txt"
head -12 "$R/round2/profile-cgnr-wilson-none.txt"
