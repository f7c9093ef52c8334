#!/usr/bin/env bash
# One call on one H200 (commit of 2026-11-27 after 0f667d6; the GPU kernels as at dd1ba22): the
# dslash rows furthest from the 85% goal at four volumes, to split each one-parity hop's time
# into a part that grows with the volume and a fixed part a call. Tuned on first use
# (GLUON_TUNE_CACHE), 200 timed calls, per call (median) and back to back.
# The JSON files did not come back (their names had commas); summary.txt is the command's output.
S=$SECONDS; export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0; R=$OUT/gv; mkdir -p $R
export GLUON_TUNE_CACHE=$R/tunecache.json
{ cmake --preset cuda > $R/configure.log 2>&1 && cmake --build build-cuda --target gluon -j 16 > $R/build.log 2>&1; } ||
  { tail -30 $R/build.log; exit 1; }
echo "built $((SECONDS-S)) s"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
for row in "wilson single 12" "wilson double 12" "wilson single 8" "clover single 8"; do
  set -- $row
  for L in 32,32,32,32 32,32,32,64 48,48,48,32 48,48,48,48; do
    f=$R/${1:0:1}${2:0:1}$3-$L.json
    build-cuda/bin/gluon bench dslash --operator $1 --precision $2 --recon $3 --lattice $L --iterations 200 --json > $f 2>$f.err
    python3 -c "
import json; d=json.load(open('$f')); print('%-18s %-12s %7.1f GFLOP/s per call %.3f  back-to-back %.3f  copy %.0f GB/s  %.1f us' % ('$row', '$L', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], d['copy_gbs'], 1000*d['dslash_ms']))"
  done
done
echo "done $((SECONDS-S)) s"; rm -f $R/build.log
