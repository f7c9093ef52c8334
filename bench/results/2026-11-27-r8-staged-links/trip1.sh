#!/usr/bin/env bash
# Trip 1 (one GPU): single-precision r8 links staged in shared memory by cp.async
# (GLUON_GPU_LINK_STAGING). Build gluon and gpu_dirac_wilson_test; then, as far as the call's
# time goes: staged against the tuner's best other kind in one process (--ab-env, single calls
# interleaved, 32^4), per-call rows in separate processes, and the staged-link test.
# STAGE=build|bench|test|all picks the part (the machine stays warm between calls).
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$OUT/tc.json; S=$SECONDS
STAGE=${STAGE:-all}
nvidia-smi --query-gpu=name --format=csv,noheader
if [ "$STAGE" = build ] || [ "$STAGE" = all ]; then
  { cmake --preset cuda > $OUT/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_dirac_wilson_test -j 16 > $OUT/build.log 2>&1; } ||
    { grep -E "error|rror:" $OUT/build.log | head -30; tail $OUT/configure.log; exit 1; }
  echo "built $((SECONDS-S)) s"; rm -f $OUT/build.log
fi
B=build-cuda/bin/gluon
if [ "$STAGE" = bench ] || [ "$STAGE" = all ]; then
  for r in "wilson single 8" "clover single 8"; do
    set -- $r
    $B bench dslash --lattice 32,32,32,32 --iterations 100 --json --operator $1 --precision $2 --recon $3 \
      --ab-env GLUON_GPU_LINK_STAGING=0,1 > $OUT/ab-$1-$2-r$3.json 2>$OUT/ab-$1.err || tail -3 $OUT/ab-$1.err
    python3 -c "
import json; d=json.load(open('$OUT/ab-$1-$2-r$3.json'))
print('ab %-18s' % '$r', ' '.join('staging %s %.3f' % (x['values'][0], x['fraction_of_copy']) for x in d['ab']['runs']))" | tee -a $OUT/sum.txt
  done
  echo "ab done $((SECONDS-S)) s"
  row() {  # round staging(def|0|1) operator precision recon
    if [ "$2" = def ]; then unset GLUON_GPU_LINK_STAGING; else export GLUON_GPU_LINK_STAGING=$2; fi
    $B bench dslash --lattice 32,32,32,32 --iterations 200 --json --operator $3 --precision $4 --recon $5 > $OUT/r.json 2>/dev/null
    python3 -c "
import json; d=json.load(open('$OUT/r.json')); print('%-4s %-22s %8.1f %.3f b2b %.3f %.1f us copy %.0f' % ('$1', '$3 $4 $5 s$2', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000*d['dslash_ms'], d['copy_gbs']))" | tee -a $OUT/sum.txt
  }
  for k in 1 2; do for t in 0 1; do
    for r in "wilson single 8" "clover single 8"; do row $k $t $r; done
  done; done
  unset GLUON_GPU_LINK_STAGING; rm -f $OUT/r.json
  echo "rows done $((SECONDS-S)) s"
fi
if [ "$STAGE" = test ] || [ "$STAGE" = all ]; then
  timeout 300 build-cuda/bin/gpu_dirac_wilson_test --gtest_filter='*Staged*:*OperatorsMatch*:*EveryLaunch*' > $OUT/test.log 2>&1
  echo "test rc $? $((SECONDS-S)) s"; grep -E "^\[  (PASSED|FAILED)|FAILED|Failure" $OUT/test.log | head -20
fi
echo "done $((SECONDS-S)) s"
