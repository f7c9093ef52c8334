#!/usr/bin/env bash
# Call 1 on the Xeon host: build the CPU preset (HEAD: non-temporal dslash stores, non-temporal
# copy), 3 copy measurements, then Wilson and clover at 48^4 in double, single and half, r12 and
# r8, with plain stores (GLUON_CPU_STREAM_STORES=0) and non-temporal ones (=1), interleaved.
set -u
R=/tmp/nt1; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build.log 2>&1 ) || { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
export OMP_NUM_THREADS=16
build/bin/gluon info > $R/info.txt 2>&1
for i in 1 2 3; do build/bin/gluon bench copy --backend cpu --json > $R/copy-$i.json; done
python3 -c "
import json
for i in (1,2,3):
    d = json.load(open('$R/copy-%d.json' % i))
    print('copy', i, 'plain %.1f  non-temporal %.1f  copy_gbs %.1f GB/s' % (d['kernel_copy_gbs'], d['nontemporal_copy_gbs'], d['copy_gbs']))
" | tee $R/copy.txt
for m in 0 1; do printf '#!/bin/sh\nGLUON_CPU_STREAM_STORES=%s exec %s/build/bin/gluon "$@"\n' $m $PWD > /tmp/gluon-nt$m; chmod +x /tmp/gluon-nt$m; done
BINS="plain=/tmp/gluon-nt0 stream=/tmp/gluon-nt1" RUNS=1 OPS="wilson clover" \
  PRECS="double single half" RECONS="12 8" LATTICES=48,48,48,48 WAIT=2 ITER=20 OUT=$R/wc \
  timeout $((570 - SECONDS)) bash bench/dslash-cpu.sh > $R/wc.txt 2>&1
echo "done at $((SECONDS - S)) s"
cat $R/wc/summary.txt
tar -czf $OUT/trip1.tgz -C $R .
