#!/usr/bin/env bash
# Trip 1 (one call, fresh machine): the tree at HEAD built whole (gluon and every test target),
# then every GPU test (ctest -L gpu). Logs in $OUT.
export PATH=/usr/local/cuda/bin:$PATH; S=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
git rev-parse HEAD^{tree} > $OUT/tree.txt 2>/dev/null
OUT=$OUT PARTS="build tests" timeout 580 bash bench/solver-gpu.sh > $OUT/stdout.txt 2>&1
echo "rc $? after $((SECONDS-S)) s"; rm -f $OUT/build.log; tail -5 $OUT/stdout.txt
grep -E "tests passed|Failed|\*\*\*Failed|Not Run" $OUT/ctest-gpu.log | head -20
