#!/usr/bin/env bash
# On the GPU machine's Xeon host: streams.cpp (built there with its g++ 13, -march=native) beside
# gluon bench dslash (the binary built on the 2-core VM, carried xz-compressed in build-ab/),
# interleaved in ROUNDS rounds, 16 OpenMP threads.
#   ROUNDS="1 2 3" OUT=<dir> bash bench/results/2026-11-28-cpu-stream-mix/trip.sh
set -u
S=$SECONDS
D=bench/results/2026-11-28-cpu-stream-mix
source bench/cpu-ab-binaries.sh  # build-ab/ unpacked into $B (/tmp/ab); $OUT/machine.txt
g++ --version | head -1 >> $OUT/machine.txt
g++ -O3 -march=native -fopenmp $D/streams.cpp -o /tmp/streams 2> $OUT/build.log || { cat $OUT/build.log; exit 1; }
export OMP_NUM_THREADS=${THREADS:-16}
dslash() {  # label args...
  local label=$1; shift
  $B/gluon bench dslash --backend cpu --lattice ${LAT:-48,48,48,48} --iterations 20 --json "$@" > $OUT/$label.json 2> $OUT/$label.err
  python3 -c "
import json
d = json.load(open('$OUT/$label.json'))
print('%-22s %7.1f GFLOP/s %.3f of copy %.1f GB/s eff %.1f GB/s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], d['effective_gbs']))
" 2>&1 | tee -a $OUT/summary.txt
}
for r in ${ROUNDS:-1 2 3}; do
  echo "== round $r at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
  /tmp/streams 48 48 48 48 2>&1 | tee $OUT/streams-48-r$r.txt | tee -a $OUT/summary.txt
  dslash wilson-double-r12-r$r --operator wilson --precision double --recon 12
  dslash clover-double-r12-r$r --operator clover --precision double --recon 12
  dslash wilson-single-r12-r$r --operator wilson --precision single --recon 12
done
echo "== in the L3: 16x16x16x32 at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
COPY_MIB=1200 /tmp/streams 16 16 16 32 2>&1 | tee $OUT/streams-16.txt | tee -a $OUT/summary.txt
LAT=16,16,16,32 dslash wilson-double-r12-l3 --operator wilson --precision double --recon 12
echo "== thread sweep of streams at 48^4 at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
for th in 1 2 4 8; do
  echo "-- $th threads" | tee -a $OUT/summary.txt
  OMP_NUM_THREADS=$th REPS=5 COPY_MIB=1200 /tmp/streams 48 48 48 48 2>&1 | tee $OUT/streams-48-t$th.txt | tee -a $OUT/summary.txt
done
echo "done at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
