#!/usr/bin/env bash
# Trip 2 (one call, fresh GPU machine): the final tree (tail kind built in single only). Build
# gluon and gpu_dirac_wilson_test, run all of that test binary, then at 32^4 the tuner's pick
# (fresh cache) for the Wilson/clover rows, one thread a site for the single r12 rows, and
# Wilson CGNR double-single one thread against the tuner. Everything lands in $OUT/trip2.tar.
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$OUT/t/tc.json; S=$SECONDS; mkdir -p $OUT/t; T=$OUT/t
{ cmake --preset cuda > $T/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_dirac_wilson_test -j 16 > $T/build.log 2>&1; } ||
  { grep error $T/build.log | head -30; tail $T/configure.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $T/build.log; nvidia-smi --query-gpu=name --format=csv,noheader | tee $T/gpu.txt
(timeout 240 build-cuda/bin/gpu_dirac_wilson_test > $T/test.log 2>&1; echo "wilson gpu test rc $? $((SECONDS-S)) s"
 grep -E "^\[  (PASSED|FAILED)|FAILED|Failure|OK \]" $T/test.log | head -20)
row() {  # label threads(def|1) operator precision recon
  if [ "$2" = def ]; then unset GLUON_GPU_SITE_THREADS; else export GLUON_GPU_SITE_THREADS=$2; fi
  build-cuda/bin/gluon bench dslash --lattice 32,32,32,32 --iterations 200 --json --operator $3 --precision $4 --recon $5 > $T/r.json 2>/dev/null
  cp $T/r.json $T/dslash-$1-t$2-$3-$4-r$5.json
  python3 -c "
import json; d=json.load(open('$T/r.json')); print('%-5s %-24s %8.1f %.3f b2b %.3f %.1f us M %.3f copy %.0f' % ('$1', '$3 $4 $5 t$2', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000*d['dslash_ms'], d['operator_fraction_of_copy'], d['copy_gbs']))" | tee -a $T/sum.txt
}
for k in 1 2; do
  for r in "wilson single 12" "clover single 12" "wilson double 12" "clover double 12" "wilson single 8" "clover single 8" "wilson half 12"; do row a$k def $r; done
  for r in "wilson single 12" "clover single 12"; do row a$k 1 $r; done
done
for k in 1 2; do for t in 1 def; do
  if [ "$t" = def ]; then unset GLUON_GPU_SITE_THREADS; else export GLUON_GPU_SITE_THREADS=$t; fi
  build-cuda/bin/gluon bench solver --operator wilson --solver cgnr --precision double --sloppy-precision single --lattice 32,32,32,32 --tol 1e-10 --json > $T/s.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$T/s.json')); print('solve %s t%s wilson cgnr double-single it %d %.2f ms %.1f GFLOP/s %.3f of op' % ('$k', '$t', d['iterations'], 1000*d['seconds'], d['gflops'], d['fraction_of_operator']))" | tee -a $T/sum.txt
done; done
unset GLUON_GPU_SITE_THREADS; rm -f $T/r.json $T/s.json; tar -C $OUT -cf $OUT/trip2.tar t && rm -rf $T; echo "done $((SECONDS-S)) s"
