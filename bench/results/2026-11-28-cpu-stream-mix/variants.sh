#!/usr/bin/env bash
# On the GPU machine's Xeon host: streams.cpp's variants of the mix with neighbour reads (VARIANTS,
# "nb pf l2 by bz sync [links];...", streams.cpp says what each field means) and, with CACHE_MIB,
# how much 16 threads can read again from the caches; one process a lattice of LATTICES.
#   VARIANTS="..." [CACHE_MIB=8,16,...] [LATTICES="48x48x48x48 48x48x48x48"] OUT=<dir> \
#     bash bench/results/2026-11-28-cpu-stream-mix/variants.sh
# Trips 2-4 ran it with the settings in README.md; their output is in trip2/, trip3/, trip4/.
set -u
OUT=${OUT:?}
mkdir -p "$OUT"
D=bench/results/2026-11-28-cpu-stream-mix
g++ -O3 -march=native -fopenmp $D/streams.cpp -o /tmp/streams 2> $OUT/build.log || { cat $OUT/build.log; exit 1; }
export OMP_NUM_THREADS=16
i=0
for lat in ${LATTICES:-48x48x48x48 48x48x48x48}; do
  i=$((i + 1))
  /tmp/streams ${lat//x/ } > $OUT/streams-$lat-$i.txt 2>&1
done
