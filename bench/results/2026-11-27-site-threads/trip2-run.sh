#!/usr/bin/env bash
# Trip 2, call 2 (warm, after trip2-build.sh): every test of gpu_dirac_wilson_test, then one
# thread a site against two in separate processes, alternating, three rounds (per call the median
# of 200 calls at 32^4), for the half rows and Wilson single r12, then the tuner's pick among
# both kinds for the 32^4 rows of issue 3's Wilson/clover table.
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$OUT/tc.json; S=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader
(timeout 240 build-cuda/bin/gpu_dirac_wilson_test > $OUT/test-all.log 2>&1; echo "wilson gpu test rc $? $((SECONDS-S)) s"
 grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test-all.log | head -20)
row() {  # label threads operator precision recon
  GLUON_GPU_SITE_THREADS=$2 build-cuda/bin/gluon bench dslash --lattice 32,32,32,32 --iterations 200 --json \
    --operator $3 --precision $4 --recon $5 > $OUT/r.json 2>/dev/null
  python3 -c "
import json; d=json.load(open('$OUT/r.json')); print('%-6s %-22s %8.1f %.3f b2b %.3f %.1f us copy %.0f' % ('$1', '$3 $4 $5 t$2', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000*d['dslash_ms'], d['copy_gbs']))" | tee -a $OUT/sum.txt
}
for k in 1 2 3; do for t in 1 2; do
  for r in "wilson half 12" "clover half 12" "wilson half 18" "wilson single 12"; do row $k $t $r; done
done; done
for r in "wilson single 12" "wilson double 12" "clover single 12" "clover double 12" "wilson half 12" "clover half 12" "wilson single 8" "clover single 8"; do
  row auto auto $r
done; echo "done $((SECONDS-S)) s"
