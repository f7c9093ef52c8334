#!/usr/bin/env bash
# Trip 3 (one call on a fresh H200, tree 9eea5ce: two threads a site the default in double and
# single): build, every test of gpu_dirac_wilson_test, then the default against one thread a site
# (GLUON_GPU_SITE_THREADS=1) in separate processes, two rounds, 32^4, and the default for the
# table's other rows. (Run inline as one command; kept here as run.)
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$OUT/tc.json; S=$SECONDS
{ cmake --preset cuda > $OUT/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_dirac_wilson_test -j 16 > $OUT/build.log 2>&1; } ||
  { grep error $OUT/build.log | head; tail $OUT/configure.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $OUT/build.log; nvidia-smi --query-gpu=name --format=csv,noheader
(timeout 150 build-cuda/bin/gpu_dirac_wilson_test > $OUT/test-all.log 2>&1; echo "wilson gpu test rc $? $((SECONDS-S)) s"
 grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test-all.log | head)
row() {  # round threads(def|1) operator precision recon
  if [ "$2" = def ]; then unset GLUON_GPU_SITE_THREADS; else export GLUON_GPU_SITE_THREADS=$2; fi
  build-cuda/bin/gluon bench dslash --lattice 32,32,32,32 --iterations 200 --json --operator $3 --precision $4 --recon $5 > $OUT/r.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$OUT/r.json')); print('%-4s %-22s %8.1f %.3f b2b %.3f %.1f us copy %.0f' % ('$1', '$3 $4 $5 t$2', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000*d['dslash_ms'], d['copy_gbs']))" | tee -a $OUT/sum.txt
}
for k in 1 2; do for t in def 1; do
  for r in "wilson single 12" "wilson double 12" "clover single 12" "clover double 12"; do row $k $t $r; done
done; done
for r in "wilson half 12" "clover half 12" "wilson single 8" "clover single 8" "wilson single 18" "staggered single 12" "improved-staggered single 12"; do
  row def def $r
done; unset GLUON_GPU_SITE_THREADS; echo "done $((SECONDS-S)) s"
