#!/usr/bin/env bash
# Call 3 on the GPU machine's Xeon host (same warm machine): Wilson r12 half and single at
# 16^3 x 32 (in L3) with 1, 2, 4, 8 and 16 threads (bound to cores), to see whether the
# per-thread compute rate holds as threads are added.
R=/tmp/pl3; mkdir -p $R
for th in 1 2 4 8 16; do for p in half single; do
  OMP_NUM_THREADS=$th OMP_PROC_BIND=close OMP_PLACES=cores build/bin/gluon bench dslash --backend cpu \
    --operator wilson --precision $p --recon 12 --lattice 16,16,16,32 --iterations 200 --json \
    > $R/w${p:0:1}12-t$th.json 2>$R/w${p:0:1}12-t$th.err
  python3 -c "
import json; d=json.load(open('$R/w${p:0:1}12-t$th.json')); print('$p threads $th', round(d['gflops'],1), 'per thread', round(d['gflops']/$th,1), round(d['fraction_of_copy'],3), round(d['copy_gbs'],1))"
done; done
grep -m3 MHz /proc/cpuinfo; cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list 2>/dev/null
tar -czf $OUT/pl3.tgz -C $R .
