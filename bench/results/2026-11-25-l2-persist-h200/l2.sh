set -u
R=/tmp/l2; rm -rf $R; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
PARTS="build tests" OUT=$R/build bash bench/solver-gpu.sh > $R/build.txt 2>&1 || { tail -30 $R/build.txt; }
echo "built+tested at $SECONDS s"; tail -3 $R/build.txt
GLUON_LOG_LEVEL=debug GLUON_TUNE_CACHE=$R/probe-tune.json build-cuda/bin/gluon bench dslash --backend cuda --operator wilson --precision single --recon 12 --lattice 32,32,32,32 > $R/probe.txt 2>&1
grep -i "L2\|persist" $R/probe.txt | head -5
for round in 1 2 3; do
  for keep in 0 1; do
    GLUON_L2_KEEP=$keep GLUON_TUNE_CACHE=$R/tune-$keep.json PARTS="dslash" OUT=$R/keep$keep-run$round bash bench/solver-gpu.sh > /dev/null 2>&1
  done
  echo "round $round at $SECONDS s"
done
for keep in 0 1; do
  GLUON_L2_KEEP=$keep GLUON_TUNE_CACHE=$R/tune-$keep.json PARTS="solver" OUT=$R/solver-keep$keep timeout $((560-SECONDS)) bash bench/solver-gpu.sh > /dev/null 2>&1
  echo "solver keep $keep at $SECONDS s"
done
python3 - $R <<'PY'
import json,glob,os,sys,collections
R=sys.argv[1]; rows=collections.defaultdict(lambda: {0:[],1:[]})
for k in (0,1):
  for f in glob.glob(f"{R}/keep{k}-run*/dslash-*.json"):
    j=json.load(open(f)); rows[(j['operator'],j['precision'],j['recon'])][k].append((j['gflops'],j['fraction_of_copy']))
for key,v in sorted(rows.items()):
  a=[g for g,_ in v[0]]; b=[g for g,_ in v[1]]
  fa=[f for _,f in v[0]]; fb=[f for _,f in v[1]]
  print(f"{key[0]:>19} {key[1]:>7} r{key[2]:<2} off {' '.join(f'{x:7.0f}' for x in a)}  on {' '.join(f'{x:7.0f}' for x in b)}  ratio {max(b)/max(a):.3f}  of copy {100*max(fa):.1f} -> {100*max(fb):.1f}")
PY
cat $R/solver-keep0/summary.txt $R/solver-keep1/summary.txt 2>/dev/null
tar -czf $OUT/l2.tgz -C $R .
