#!/usr/bin/env bash
# Trip 1 (one call, one GPU): two threads a site for r8 links too. Build gluon and
# gpu_dirac_wilson_test, run the two-thread test (now with r8) and every launch variant against the
# CPU, then one thread against two a site: in one process (--ab-env, single calls interleaved) and
# in separate processes alternating (per-call medians of 200 calls), 32^4; then the tuner's pick.
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$OUT/tc.json; S=$SECONDS
{ cmake --preset cuda > $OUT/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_dirac_wilson_test -j 16 > $OUT/build.log 2>&1; } ||
  { grep error $OUT/build.log | head -30; tail $OUT/configure.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $OUT/build.log; nvidia-smi --query-gpu=name --format=csv,noheader
(timeout 200 build-cuda/bin/gpu_dirac_wilson_test --gtest_filter='*TwoThreads*:*EveryLaunch*' > $OUT/test.log 2>&1
 echo "test rc $? $((SECONDS-S)) s"; grep -E "^\[  (PASSED|FAILED)|FAILED|Failure" $OUT/test.log | head -20)
B=build-cuda/bin/gluon
row() {  # round threads(def|1|2) operator precision recon
  if [ "$2" = def ]; then unset GLUON_GPU_SITE_THREADS; else export GLUON_GPU_SITE_THREADS=$2; fi
  $B bench dslash --lattice 32,32,32,32 --iterations 200 --json --operator $3 --precision $4 --recon $5 > $OUT/r.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$OUT/r.json')); print('%-4s %-22s %8.1f %.3f b2b %.3f %.1f us copy %.0f' % ('$1', '$3 $4 $5 t$2', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000*d['dslash_ms'], d['copy_gbs']))" | tee -a $OUT/sum.txt
}
for r in "wilson single 8" "clover single 8" "wilson double 8"; do
  set -- $r
  $B bench dslash --lattice 32,32,32,32 --iterations 100 --json --operator $1 --precision $2 --recon $3 \
    --ab-env GLUON_GPU_SITE_THREADS=1,2 > $OUT/ab-$1-$2-r$3.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$OUT/ab-$1-$2-r$3.json'))
print('ab %-18s' % '$r', ' '.join('t%s %.3f' % (x['values'][0], x['fraction_of_copy']) for x in d['ab']['runs']))" | tee -a $OUT/sum.txt
done
echo "ab done $((SECONDS-S)) s"
for k in 1 2 3; do for t in 1 2; do
  for r in "wilson single 8" "clover single 8" "wilson double 8"; do row $k $t $r; done
done; done
echo "rounds done $((SECONDS-S)) s"
rm -f $OUT/tc.json
for r in "wilson single 8" "clover single 8" "wilson double 8" "wilson single 12"; do row def def $r; done
unset GLUON_GPU_SITE_THREADS; rm -f $OUT/r.json; echo "done $((SECONDS-S)) s"
