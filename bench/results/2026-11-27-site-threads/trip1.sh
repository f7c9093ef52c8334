#!/usr/bin/env bash
# Call 1 on one H100 or H200 (it ran on an H100): the Wilson/clover GPU dslash with one thread a site against two
# (GLUON_GPU_SITE_THREADS=1,2: the tuner times each kind's plain kernel and occupancy floors),
# interleaved in one process (`gluon bench dslash --ab-env`), 200 calls a setting, at 32^4 and
# for Wilson single r12 also 32^3 x 64 (the volume that showed the one-thread kernel's fixed
# ~12 us a call). Then the tuner's own pick (unset: both kinds timed) per row.
# Rows that would start after LIMIT seconds (560) are skipped, to end within a call.
set -u
S=$SECONDS; export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0; R=$OUT; mkdir -p $R
export GLUON_TUNE_CACHE=$R/tunecache.json
{ cmake --preset cuda > $R/configure.log 2>&1 && cmake --build build-cuda --target gluon gpu_dirac_wilson_test -j 16 > $R/build.log 2>&1; } ||
  { grep -E "error" $R/build.log | head -30; tail -30 $R/build.log; exit 1; }
echo "built $((SECONDS-S)) s"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
one() {  # label lattice args...
  local label=$1 lat=$2; shift 2
  if (( SECONDS - S > ${LIMIT:-560} )); then echo "$label skipped (time)"; return; fi
  build-cuda/bin/gluon bench dslash --lattice $lat --iterations 200 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
r = d.get('ab', {}).get('runs', [])
runs = '  '.join('%s %7.1f (%.3f) %.3f' % ('/'.join(x['values']), x['gflops'], x['fraction_of_copy'], x['gflops'] / r[0]['gflops']) for x in r)
print('%-14s %7.1f GFLOP/s %.3f of copy (b2b %.3f) %.0f GB/s %.1f us | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], d['copy_gbs'], 1000 * d['dslash_ms'], runs))
" 2>&1 | tee -a $R/summary.txt
}
AB="--ab-env GLUON_GPU_SITE_THREADS=1,2"
for row in "wilson single 12" "wilson double 12" "clover single 12" "clover double 12" "wilson single 18"; do
  set -- $row
  one ab-${1:0:1}${2:0:1}$3 32,32,32,32 --operator $1 --precision $2 --recon $3 $AB
done
one ab-ws12-t64 32,32,32,64 --operator wilson --precision single --recon 12 $AB
echo "ab done $((SECONDS-S)) s"
for row in "wilson single 12" "wilson double 12" "clover single 12" "clover double 12"; do
  set -- $row
  one auto-${1:0:1}${2:0:1}$3 32,32,32,32 --operator $1 --precision $2 --recon $3
done
echo "done $((SECONDS-S)) s"; rm -f $R/build.log
