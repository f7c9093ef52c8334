#!/usr/bin/env bash
# On the GPU machine's Xeon host: does pinning the OpenMP threads (OMP_PROC_BIND=close,
# OMP_PLACES=cores) change the CPU dslash's fraction of the copy, or its spread between
# processes? Each process measures its own copy (the same binding), 48^4, 16 threads; bound and
# unbound processes alternate. Binaries built on the development VM, in build-ab/.
set -u
S=$SECONDS
source bench/cpu-ab-binaries.sh
{ lscpu -e 2>/dev/null | head -20; command -v numactl >/dev/null && numactl -H; } > $OUT/topology.txt 2>&1
export OMP_NUM_THREADS=16
one() {  # label bind args...
  local label=$1 bind=$2; shift 2
  if [ $bind = close ]; then
    OMP_PROC_BIND=close OMP_PLACES=cores $B/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $OUT/$label.json 2> $OUT/$label.err
  else
    $B/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $OUT/$label.json 2> $OUT/$label.err
  fi
  python3 -c "
import json
d = json.load(open('$OUT/$label.json'))
print('%-16s %-5s %6.1f GFLOP/s %.3f of copy %5.1f GB/s' % ('$label', '$bind', d['gflops'], d['fraction_of_copy'], d['copy_gbs']))
" 2>&1 | tee -a $OUT/summary.txt
}
for k in ${ROUNDS:-1 2 3 4}; do
  for row in ${CASES:-wd12 cd12 ws12 ch12}; do
    op=wilson; [ ${row:0:1} = c ] && op=clover
    p=double; [ ${row:1:1} = s ] && p=single; [ ${row:1:1} = h ] && p=half
    if [ $((k % 2)) = 1 ]; then order="none close"; else order="close none"; fi
    for bind in $order; do one $row-$k-$bind $bind --operator $op --precision $p --recon ${row:2}; done
  done
  echo "round $k at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
done
