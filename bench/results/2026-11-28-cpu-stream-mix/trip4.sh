#!/usr/bin/env bash
# On the GPU machine's Xeon host: the mix with its neighbour reads, the thread's rows swept over t
# in blocks of by x bz rows (y, z) small enough for the input's reuse to stay in the 2 MiB L2,
# at 48^4, two rounds, 16 OpenMP threads.
#   OUT=<dir> bash bench/results/2026-11-28-cpu-stream-mix/trip4.sh
set -u
OUT=${OUT:?}
mkdir -p "$OUT"
D=bench/results/2026-11-28-cpu-stream-mix
g++ -O3 -march=native -fopenmp $D/streams.cpp -o /tmp/streams 2> $OUT/build.log || { cat $OUT/build.log; exit 1; }
export OMP_NUM_THREADS=16
export VARIANTS="63 0 0 0 0 0 0;63 0 0 24 3 0 0;63 0 0 16 3 0 0;63 0 0 12 3 0 0;63 0 0 8 3 0 0;63 0 0 6 3 0 0;63 0 0 48 1 0 0;63 0 0 16 1 0 0;63 0 0 12 3 1 0;63 0 0 0 0 0 0"
for r in 1 2; do  # trip 4: CACHE_MIB unset
  /tmp/streams 48 48 48 48 > $OUT/streams-48-r$r.txt 2>&1
done
