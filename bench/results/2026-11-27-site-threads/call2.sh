#!/usr/bin/env bash
# Call 2 (the machine of call 1, warm, build-cuda kept): the Wilson GPU tests of the two-thread
# kernel, then one thread against two a site in separate processes, alternating, three rounds
# (per call the median of 200 calls, as `gluon bench dslash` reports it: the --ab-env timing of
# call 1 times single calls, which adds the host's launch time to both settings).
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$OUT/tc.json; S=$SECONDS
(timeout 300 build-cuda/bin/gpu_dirac_wilson_test --gtest_filter='*TwoThreads*:*EveryLaunch*:*OperatorsMatch*' > $OUT/test.log 2>&1
 echo "test rc $? $((SECONDS-S)) s"; grep -E "^\[  (PASSED|FAILED)|FAILED|Failure" $OUT/test.log | head -20)
for k in 1 2 3; do for t in 1 2; do for row in "wilson single 12" "wilson double 12" "clover single 12"; do
  set -- $row
  GLUON_GPU_SITE_THREADS=$t build-cuda/bin/gluon bench dslash --lattice 32,32,32,32 --iterations 200 --json \
    --operator $1 --precision $2 --recon $3 > $OUT/r.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$OUT/r.json')); print('$k t$t %-18s %7.1f %.3f b2b %.3f %.1f us' % ('$row', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000*d['dslash_ms']))" | tee -a $OUT/sum.txt
done; done; done; echo "done $((SECONDS-S)) s"
