#!/usr/bin/env bash
# Ad-hoc device script: build, GPU tests, then the Wilson/clover rows with the time sweep
# allowed (GLUON_SWEEP_AB=1) and not (=0), alternating, each with its own tune cache.
set -uo pipefail
R=$OUT
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh 2>&1 | tail -8
printf '%s\n' "wilson double 12" "wilson single 12" "wilson half 12" "wilson single 8" "clover double 12" "clover single 12" > $R/rows.txt
for run in 1 2; do
  for ab in 0 1; do
    d=$R/ab$ab-run$run
    GLUON_SWEEP_AB=$ab GLUON_TUNE_CACHE=$R/tune-$ab.json TABLE_FILE=$R/rows.txt PARTS="dslash" OUT=$d BUILD_DIR=build-cuda bash bench/solver-gpu.sh >/dev/null 2>&1
    echo "== sweep $ab run $run"; cat $d/summary.txt
  done
done
python3 - $R/tune-1.json <<'PY'
import json,sys
j=json.load(open(sys.argv[1]))
es=j.get("entries",j) if isinstance(j,dict) else j
for e in (es if isinstance(es,list) else []):
    if "variant" in str(e.get("label","")) and "wilson" in str(e.get("label","")):
        print(e.get("label"), e.get("aux"), e.get("n"), "block", e.get("block"), "t", e.get("time"), "t0", e.get("t0", e.get("time_default")), str(e.get("type",""))[:60])
PY
