#!/usr/bin/env bash
# On the GPU machine's Xeon host: which of the input's neighbour reads cost the dslash-shaped stream
# mix its speed, and whether a prefetch, a barrier or blocking the sweep buys it back (streams.cpp's
# VARIANTS), at 48^4 (two rounds) and 32^3 x 48, 16 OpenMP threads.
#   OUT=<dir> bash bench/results/2026-11-28-cpu-stream-mix/trip2.sh
set -u
OUT=${OUT:?}
mkdir -p "$OUT"
D=bench/results/2026-11-28-cpu-stream-mix
g++ -O3 -march=native -fopenmp $D/streams.cpp -o /tmp/streams 2> $OUT/build.log || { cat $OUT/build.log; exit 1; }
export OMP_NUM_THREADS=16
export VARIANTS="63 0 0 0 0 0;3 0 0 0 0 0;12 0 0 0 0 0;48 0 0 0 0 0;63 2 0 0 0 0;63 4 1 0 0 0;63 8 1 0 0 0;63 0 0 0 0 1;63 0 0 0 0 4;63 0 0 48 1 0;63 4 1 48 1 0"  # as run: also 72 consecutive rows (1.5 planes), which by x bz cannot express
for r in 1 2; do
  /tmp/streams 48 48 48 48 > $OUT/streams-48-r$r.txt 2>&1
done
/tmp/streams 32 32 32 48 > $OUT/streams-32x48.txt 2>&1
paste $OUT/streams-48-r1.txt $OUT/streams-48-r2.txt | cut -c1-200 > /dev/null
