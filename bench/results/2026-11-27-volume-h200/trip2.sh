#!/usr/bin/env bash
# Call 2 on one H200 (fresh machine, same tree as trip 1): where the ~12 us a call that trip 1
# found goes. Nsight Compute's kernel duration (gpu__time_duration) of the Wilson single r12 hop at
# 32^4 and 32^3 x 64, against the time per call that gluon bench dslash measures between events,
# and gluon's own profile (GLUON_PROFILE=1: each kernel bracketed by events, with the idle time
# before each launch).
S=$SECONDS; export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0; R=$OUT/gv2; mkdir -p $R
export GLUON_TUNE_CACHE=$R/tunecache.json
{ cmake --preset cuda > $R/configure.log 2>&1 && cmake --build build-cuda --target gluon -j 16 > $R/build.log 2>&1; } ||
  { tail -30 $R/build.log; exit 1; }
echo "built $((SECONDS-S)) s"
B="build-cuda/bin/gluon bench dslash --operator wilson --precision single --recon 12"
for L in 32x32x32x32 32x32x32x64; do
  lat=${L//x/,}
  $B --lattice $lat --iterations 200 --json > $R/ws12-$L.json 2> $R/ws12-$L.err   # tunes, fills the cache
  python3 -c "
import json; d=json.load(open('$R/ws12-$L.json')); print('$L per call %.1f us (%.3f)  back to back %.1f us (%.3f)' % (1000*d['dslash_ms'], d['fraction_of_copy'], 1000*d['dslash_back_to_back_ms'], d['back_to_back_fraction_of_copy']))"
  GLUON_PROFILE=1 $B --lattice $lat --iterations 200 > $R/ws12-$L-profile.txt 2>&1
  grep -iE "dslash|wilson|span|label" $R/ws12-$L-profile.txt | head -8
  ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum \
    --launch-skip 100 --launch-count 8 --csv $B --lattice $lat --iterations 60 --warmup 5 > $R/ws12-$L-ncu.csv 2> $R/ws12-$L-ncu.err
  python3 - "$R/ws12-$L-ncu.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: print("no ncu rows"); sys.exit()
h = rows[0]; k = h.index("Kernel Name"); m = h.index("Metric Name"); v = h.index("Metric Value"); u = h.index("Metric Unit")
agg = collections.defaultdict(list)
for r in rows[1:]:
    agg[(r[k][:90], r[m], r[u])].append(float(r[v].replace(",", "")))
for (kn, mn, un), vals in sorted(agg.items()):
    vals.sort(); print("%-90s %-50s %s median %.4g (n %d)" % (kn, mn, un, vals[len(vals)//2], len(vals)))
PY
done
echo "done $((SECONDS-S)) s"; rm -f $R/build.log
