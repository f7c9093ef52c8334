#!/usr/bin/env bash
# Trip 1 (one nvidia-h100-x1 call, fresh machine): the tail kind on an H100, and the queued
# --ab-env timing's first GPU run. Builds gluon, then at 32^4 (fresh tune cache) the tuner's pick
# for the Wilson/clover rows, one thread a site for the single rows, and --ab-env
# GLUON_GPU_SITE_THREADS=1,tail for Wilson single r12 and r8 (compared with the per-call medians).
# Each row's JSON is appended to $OUT/rows.jsonl as it ends, so a timeout keeps what ran.
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$OUT/tc.json; S=$SECONDS
{ cmake --preset cuda > $OUT/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_dirac_wilson_test -j 16 > $OUT/build.log 2>&1; } ||
  { grep error $OUT/build.log | head -30; tail $OUT/configure.log; exit 1; }
echo "built $((SECONDS-S)) s"; rm -f $OUT/build.log $OUT/configure.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt; git log -1 --format=%H >> $OUT/gpu.txt
row() {  # label threads(def|1) operator precision recon [extra args]
  local l=$1 t=$2 op=$3 p=$4 r=$5; shift 5
  if [ "$t" = def ]; then unset GLUON_GPU_SITE_THREADS; else export GLUON_GPU_SITE_THREADS=$t; fi
  timeout 120 build-cuda/bin/gluon bench dslash --lattice 32,32,32,32 --iterations 200 --json --operator $op --precision $p --recon $r "$@" > $OUT/r.json 2>$OUT/r.err || { echo "row $l $op $p $r t$t failed"; tail -3 $OUT/r.err; return; }
  python3 - "$l" "$t" <<PY | tee -a $OUT/sum.txt
import json, sys
d = json.load(open('$OUT/r.json')); d['label'] = sys.argv[1]; d['threads_env'] = sys.argv[2]
open('$OUT/rows.jsonl', 'a').write(json.dumps(d) + '\n')
s = '%-4s %-22s t%-4s %8.1f GFLOP/s %.3f b2b %.3f %6.1f us M %.3f copy %.0f' % (sys.argv[1], '$op $p r$r', sys.argv[2], d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], 1000*d['dslash_ms'], d['operator_fraction_of_copy'], d['copy_gbs'])
for run in d.get('ab', {}).get('runs', []):
    s += '\n     ab %s: %.1f us %.3f' % (run['values'], 1000*run['dslash_ms'], run['fraction_of_copy'])
print(s)
PY
}
for r in "wilson single 12" "clover single 12" "wilson single 8" "clover single 8" "wilson double 12" "clover double 12" "wilson half 12"; do row a1 def $r; done
for r in "wilson single 12" "wilson single 8"; do row a1 1 $r; done
for r in "wilson single 12" "wilson single 8"; do row ab def $r --ab-env GLUON_GPU_SITE_THREADS=1,tail; done
echo "rows done $((SECONDS-S)) s"
unset GLUON_GPU_SITE_THREADS; rm -f $OUT/r.json $OUT/r.err; echo "done $((SECONDS-S)) s"
