#!/usr/bin/env bash
# On the GPU machine's Xeon host: how much of the shared L3 16 threads can read again (CACHE_MIB),
# and whether keeping the links out of the caches (prefetchnta one tile ahead, or clflushopt after
# use) lets the input's neighbour reads hit, at 48^4, two rounds, 16 OpenMP threads.
#   OUT=<dir> bash bench/results/2026-11-28-cpu-stream-mix/trip3.sh
set -u
OUT=${OUT:?}
mkdir -p "$OUT"
D=bench/results/2026-11-28-cpu-stream-mix
g++ -O3 -march=native -fopenmp $D/streams.cpp -o /tmp/streams 2> $OUT/build.log || { cat $OUT/build.log; exit 1; }
export OMP_NUM_THREADS=16
export VARIANTS="63 0 0 0 0 0 0;63 0 0 0 0 0 1;63 0 0 0 0 0 2;3 0 0 0 0 0 0;3 0 0 0 0 0 1;3 0 0 0 0 0 2;48 0 0 0 0 0 0;48 0 0 0 0 0 1"
for r in 1 2; do
  CACHE_MIB=8,16,32,64,96,128,192,256,384 /tmp/streams 48 48 48 48 > $OUT/streams-48-r$r.txt 2>&1
done
