#!/usr/bin/env bash
# Call 3 (same machine, warm): every test of gpu_dirac_wilson_test; solves with one thread a site
# against two (two rounds; 5 timed solves each at 32^4, kappa 0.12, tol 1e-10); then the
# tuner's pick among both kinds (GLUON_GPU_SITE_THREADS unset) for the table's 32^4 rows.
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$OUT/tc.json; S=$SECONDS
(timeout 200 build-cuda/bin/gpu_dirac_wilson_test > $OUT/test-all.log 2>&1; echo "wilson gpu test rc $? $((SECONDS-S)) s"
 grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test-all.log | head -20)
for k in 1 2; do for t in 1 2; do
  for row in "wilson double bicgstab none" "wilson double cgnr none" "wilson double bicgstab single" "clover double cgnr none"; do
    set -- $row
    GLUON_GPU_SITE_THREADS=$t timeout 60 build-cuda/bin/gluon bench solver --lattice 32,32,32,32 --iterations 5 --warmup 2 \
      --json --operator $1 --precision $2 --solver $3 --sloppy-precision $4 > $OUT/s.json 2>$OUT/s.err
    python3 -c "
import json; d=json.load(open('$OUT/s.json')); print('$k t$t %-30s' % '$row', {k: (round(v,4) if isinstance(v,float) else v) for k,v in d.items() if k in ('iterations','solve_ms','gflops','fraction_of_operator','operator_gflops','true_residual')})" 2>&1 | tee -a $OUT/sum.txt
  done
done; done; echo "solver done $((SECONDS-S)) s"
for row in "wilson single 12" "wilson double 12" "clover single 12" "clover double 12" "wilson half 12" "clover half 12" "wilson single 8" "clover single 8" "staggered single 12"; do
  set -- $row
  build-cuda/bin/gluon bench dslash --lattice 32,32,32,32 --iterations 200 --json --operator $1 --precision $2 --recon $3 > $OUT/d.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$OUT/d.json')); print('auto %-20s %7.1f %.3f b2b %.3f %.1f us copy %.0f' % ('$row', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000*d['dslash_ms'], d['copy_gbs']))" | tee -a $OUT/sum.txt
done; echo "done $((SECONDS-S)) s"
