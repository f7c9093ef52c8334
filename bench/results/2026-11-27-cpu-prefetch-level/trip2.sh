#!/usr/bin/env bash
# Call 2 on the GPU machine's Xeon host (the build of trip 1, same warm machine): compute against
# memory. Wilson r12 in half, single and double at 16^3 x 32 (every field in the 300 MiB L3:
# half links 25 MB) and at 48^4, default settings, 16 threads, two processes each. (The command
# also ran 24,16,16,32, whose X/2 = 12 is no multiple of 8: the one-site kernel; dropped.)
R=/tmp/pl2; mkdir -p $R; export OMP_NUM_THREADS=16
for k in 1 2; do for p in half single double; do for L in 16,16,16,32 48,48,48,48; do
  it=40; [ $L = 48,48,48,48 ] || it=300
  build/bin/gluon bench dslash --backend cpu --operator wilson --precision $p --recon 12 --lattice $L \
    --iterations $it --json > $R/w${p:0:1}12-$L-$k.json 2>$R/w${p:0:1}12-$L-$k.err
  python3 -c "
import json; d=json.load(open('$R/w${p:0:1}12-$L-$k.json')); print('$p $L $k', round(d['gflops'],1), round(d['fraction_of_copy'],3), round(d['copy_gbs'],1), d['field_order'], d['dslash_ms'])"
done; done; done
tar -czf $OUT/pl2.tgz -C $R .
