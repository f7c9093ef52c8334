#!/usr/bin/env bash
# On the GPU machine's Xeon host (16 cores): does `gluon bench dslash`'s plain figure (the median
# of --iterations back-to-back calls, timed first) agree with the same kernel timed again later in
# the same process? The narrow-pairs trip (../2026-12-07-cpu-narrow-pairs) saw naive staggered
# single r12 at 24^3 x 48 read 4.39 ms plain against 1.87-1.96 ms in the interleaved A/B after it.
# Each row: the plain median, then four A/B settings that change nothing (GLUON_AB_NOP=a,b,c,d,
# a variable no kernel reads), interleaved; the same row again with 100 warm-up calls. Rows:
# that one, and the CPU goal rows still short of 60% of the copy at 48^4 (Wilson single r8, half
# r12 and r8). 16 OpenMP threads, one process a row. Everything lands in $OUT/pa.tgz.
set -u
R=/tmp/pa; rm -rf $R; mkdir -p $R
S=$SECONDS
DEADLINE=${DEADLINE:-570}
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|L2|L3" | cut -c1-200; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; } >$R/machine.txt 2>&1
git rev-parse HEAD > $R/head.txt; git status --short >> $R/head.txt
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; grep -E "error" $R/build.log | head -30; tar -czf $OUT/pa.tgz -C $R .; exit 1; }
echo "built at $((SECONDS - S)) s"
export OMP_NUM_THREADS=16
one() {  # label lattice warmup args...
  local label=$1 lat=$2 w=$3; shift 3
  (( SECONDS - S > DEADLINE - 40 )) && { echo "skipped $label (deadline)"; return; }
  timeout 90 build/bin/gluon bench dslash --backend cpu --lattice $lat --iterations 20 --warmup $w --json "$@" \
    --ab-env GLUON_AB_NOP=a,b,c,d > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
r = d['ab']['runs']
print('%-12s plain %7.3f ms %6.1f GFLOP/s %.3f | same kernel later: %s ms | copy %.1f GB/s  huge pages %.0f of %.0f MiB' % ('$label', d['dslash_ms'], d['gflops'], d['fraction_of_copy'], ' '.join('%.3f' % x['dslash_ms'] for x in r), d['copy_gbs'], d.get('host_memory', {}).get('huge_pages_mib', -1), d.get('host_memory', {}).get('anonymous_mib', -1)))
" 2>&1 | tee -a $R/summary.txt
}
one ns12-24-w10 24,24,24,48 10 --operator staggered --precision single --recon 12
one ns12-24-w100 24,24,24,48 100 --operator staggered --precision single --recon 12
one ns18-24-w10 24,24,24,48 10 --operator staggered --precision single --recon 18
one ws8-48-w10 48,48,48,48 10 --operator wilson --precision single --recon 8
one wh12-48-w10 48,48,48,48 10 --operator wilson --precision half --recon 12
one wh8-48-w10 48,48,48,48 10 --operator wilson --precision half --recon 8
one ns12-24-again 24,24,24,48 10 --operator staggered --precision single --recon 12
one ws8-48-w100 48,48,48,48 100 --operator wilson --precision single --recon 8
echo "done at $((SECONDS - S)) s"
rm -f $R/build.log $R/configure.log
tar -czf $OUT/pa.tgz -C $R .
