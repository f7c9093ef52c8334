#!/usr/bin/env bash
# Trip 1 (one nvidia-h200 call, fresh machine): the final tree of 2026-11-27, gluon built alone,
# then bench/solver-gpu.sh's dslash, solver and cgnr parts (issue 3's whole table at 32^4, fresh
# tune cache). Results in $OUT/r (tarred into $OUT/r.tar at the end), the table in $OUT/summary.txt.
export PATH=/usr/local/cuda/bin:$PATH; S=$SECONDS; R=$OUT/r; mkdir -p $R
{ cmake --preset cuda > $R/configure.log 2>&1 && cmake --build build-cuda --target gluon -j 16 > $R/build.log 2>&1; } ||
  { grep error $R/build.log | head -30; tail $R/configure.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $R/build.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt; build-cuda/bin/gluon info > $R/info.txt 2>&1
OUT=$R PARTS="dslash solver cgnr" timeout $((570 - (SECONDS - S))) bash bench/solver-gpu.sh > $R/stdout.txt 2>&1
echo "table done $((SECONDS-S)) s"; cp $R/summary.txt $OUT/summary.txt; tar -C $OUT -cf $OUT/r.tar r && rm -rf $R; cat $OUT/summary.txt
