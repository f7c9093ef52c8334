#!/usr/bin/env bash
# Trip 1 (one call, one GPU): the one-thread Wilson/clover kernel with a two-thread tail
# (GLUON_GPU_SITE_THREADS=tail). Build gluon and gpu_dirac_wilson_test, run the two-thread test
# (now also the tail kind) and every launch variant against the CPU; then, 32^4, one thread, two
# and the tail in one process (--ab-env), the tail's size per multiprocessor in one process, the
# three kinds in separate processes alternating (per-call medians of 200 calls, three rounds),
# the tuner's pick (fresh cache), and Wilson CGNR double solves one thread against the tuner.
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$OUT/tc.json; S=$SECONDS
{ cmake --preset cuda > $OUT/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_dirac_wilson_test -j 16 > $OUT/build.log 2>&1; } ||
  { grep error $OUT/build.log | head -30; tail $OUT/configure.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $OUT/build.log; nvidia-smi --query-gpu=name --format=csv,noheader
(timeout 240 build-cuda/bin/gpu_dirac_wilson_test --gtest_filter='*TwoThreads*:*EveryLaunch*' > $OUT/test.log 2>&1
 echo "test rc $? $((SECONDS-S)) s"; grep -E "^\[  (PASSED|FAILED)|FAILED|Failure" $OUT/test.log | head -20)
B=build-cuda/bin/gluon
ROWS=("wilson single 12" "wilson double 12" "clover single 12" "clover double 12")
row() {  # round threads(def|1|2|tail) operator precision recon
  if [ "$2" = def ]; then unset GLUON_GPU_SITE_THREADS; else export GLUON_GPU_SITE_THREADS=$2; fi
  $B bench dslash --lattice 32,32,32,32 --iterations 200 --json --operator $3 --precision $4 --recon $5 > $OUT/r.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$OUT/r.json')); print('%-4s %-24s %8.1f %.3f b2b %.3f %.1f us M %.3f copy %.0f' % ('$1', '$3 $4 $5 t$2', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000*d['dslash_ms'], d['operator_fraction_of_copy'], d['copy_gbs']))" | tee -a $OUT/sum.txt
}
ab() {  # name row... -- env spec
  local name=$1; shift; set -- $1 "${@:2}"
  $B bench dslash --lattice 32,32,32,32 --iterations 100 --json --operator $1 --precision $2 --recon $3 "${@:4}" > $OUT/ab-$name.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$OUT/ab-$name.json'))
print('ab %-22s' % '$name', ' '.join('%s %.3f' % ('/'.join(x['values']), x['fraction_of_copy']) for x in d['ab']['runs']))" | tee -a $OUT/sum.txt
}
for r in "${ROWS[@]}"; do set -- $r; ab $1-$2-r$3 "$r" --ab-env GLUON_GPU_SITE_THREADS=1,2,tail; done
export GLUON_GPU_SITE_THREADS=tail
ab tailsize-wilson-single "wilson single 12" --ab-env GLUON_GPU_TAIL_SITES_PER_SM=128,256,512,1024
ab tailsize-clover-single "clover single 12" --ab-env GLUON_GPU_TAIL_SITES_PER_SM=128,256,512,1024
unset GLUON_GPU_SITE_THREADS
echo "ab done $((SECONDS-S)) s"
for k in 1 2 3; do for t in 1 2 tail; do for r in "${ROWS[@]}"; do row $k $t $r; done; done; done
echo "rounds done $((SECONDS-S)) s"
rm -f $OUT/tc.json
for r in "${ROWS[@]}" "wilson single 18" "wilson single 8"; do row def def $r; done
cp $OUT/tc.json $OUT/tc-auto.json
for k in 1 2; do for t in 1 def; do
  if [ "$t" = def ]; then unset GLUON_GPU_SITE_THREADS; else export GLUON_GPU_SITE_THREADS=$t; fi
  $B bench solver --operator wilson --solver cgnr --precision double --lattice 32,32,32,32 --tol 1e-10 --json > $OUT/s.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$OUT/s.json')); print('solve %s t%s wilson cgnr double it %d %.2f ms %.1f GFLOP/s %.3f of op' % ('$k', '$t', d['iterations'], 1000*d['seconds'], d['gflops'], d['fraction_of_operator']))" | tee -a $OUT/sum.txt
done; done
unset GLUON_GPU_SITE_THREADS; rm -f $OUT/r.json $OUT/s.json; echo "done $((SECONDS-S)) s"
