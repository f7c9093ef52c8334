#!/usr/bin/env bash
# Call 3 on the GPU machine's Xeon host. Trip 2: prefetching of the input only the row at t + 1
# (GLUON_CPU_PREFETCH=ahead) was 7-16% faster than every stream (all) in 11 of 12 processes, and
# streamed output 0-10% faster on top of `spinors`. Here each on top of the other, to choose the
# defaults: prefetch all/ahead with streamed output, and plain/streamed output with `ahead`, in
# every Wilson/clover precision at r12 and Wilson single r8; and streamed output for the staggered
# kernels (which take GLUON_CPU_STREAM_STORES too). In-process comparisons (`--ab-env`), 48^4,
# 16 OpenMP threads.
set -u
R=/tmp/lp3; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
export OMP_NUM_THREADS=16
one() {  # label env-assignment args...
  local label=$1 envs=$2; shift 2
  env $envs build/bin/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
runs = '  '.join('%s %6.1f (%.3f)' % (r['value'], r['gflops'], r['fraction_of_copy']) for r in d['ab']['runs'])
print('%-12s plain %6.1f GFLOP/s %.3f of copy %.1f GB/s | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'], runs))
" 2>&1 | tee -a $R/summary.txt
}
rows=("ws12 wilson single 12" "wd12 wilson double 12" "wh12 wilson half 12" "cs12 clover single 12" "cd12 clover double 12"
      "ch12 clover half 12" "ws8 wilson single 8")
for k in 1 2; do
  for row in "${rows[@]}"; do
    set -- $row
    one $1-pf-$k GLUON_CPU_STREAM_STORES=1 --operator $2 --precision $3 --recon $4 --ab-env GLUON_CPU_PREFETCH=all,ahead
    one $1-st-$k GLUON_CPU_PREFETCH=ahead --operator $2 --precision $3 --recon $4 --ab-env GLUON_CPU_STREAM_STORES=0,1
  done
  echo "round $k at $((SECONDS - S)) s"
done
for row in "ss12 staggered single 12" "sd12 staggered double 12" "is12 improved-staggered single 12"; do
  set -- $row
  one $1-st GLUON_CPU_PREFETCH=all --operator $2 --precision $3 --recon $4 --ab-env GLUON_CPU_STREAM_STORES=0,1
done
echo "done at $((SECONDS - S)) s"
rm -f $R/build.log $R/configure.log
tar -czf $OUT/lp3.tgz -C $R .
