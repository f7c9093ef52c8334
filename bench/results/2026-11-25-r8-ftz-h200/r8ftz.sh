#!/usr/bin/env bash
# Ad-hoc: r8 rebuild with .ftz MUFU ops. Build, SASS of the r8 Wilson single kernels before
# (old reconstruct.h, one object) and after, GPU tests, r8 rows 3 times.
set -uo pipefail
R=$OUT; export PATH=/usr/local/cuda/bin:$PATH
cmake --preset cuda > $R/configure.log 2>&1
O=src/CMakeFiles/gluon_qcd.dir/qcd/dirac/wilson_dslash_single_kernels.cpp.o
CMD=$(cd build-cuda && ninja -t commands $O | tail -1)
mkdir -p /tmp/bi && cp -r include /tmp/bi/ && cp .deps/reconstruct-base.h /tmp/bi/include/gluon/qcd/reconstruct.h
BCMD=$(echo "$CMD" | sed -e "s| -I/[^ ]*/include | -I/tmp/bi/include |" -e 's/ -MD -MT [^ ]* -MF [^ ]*//' -e "s| -o [^ ]*$| -o /tmp/base.o|")
(cd build-cuda && eval "$BCMD" > $R/base-compile.log 2>&1) &
PARTS="build" OUT=$R/gpu bash bench/solver-gpu.sh 2>&1 | tail -3
wait
for f in /tmp/base.o build-cuda/$O; do
  echo "== $f"; cuobjdump -sass $f | python3 scripts/sass-histogram.py "WilsonBody<" ")8>, false>" | head -60
done > $R/sass-r8.txt 2>&1
grep -c . $R/sass-r8.txt
PARTS="tests" OUT=$R/gpu bash bench/solver-gpu.sh 2>&1 | tail -4
printf '%s\n' "wilson single 8" "clover single 8" "wilson half 8" "staggered single 8" > $R/rows.txt
for run in 1 2 3; do
  TABLE_FILE=$R/rows.txt PARTS="dslash" OUT=$R/run$run bash bench/solver-gpu.sh >/dev/null 2>&1
  echo "== run $run"; cat $R/run$run/summary.txt
done
