#!/usr/bin/env bash
# EXPERIMENT (branch spinor-load-hint): the stencils' 16-byte spinor loads with a cache hint,
# GLUON_SPINOR_LOAD_HINT = 0 plain, 1 ld.global.nc, 2 ld.global.L1::evict_last, 3 both, read at
# each launch: `gluon bench dslash --ab-env` times all four in one process a row.
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
bash bench/gpu-build.sh gluon || exit 1
B=$PWD/build-cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
R=$OUT/r; mkdir -p $R/tc
for row in "wilson single 8" "clover single 8" "wilson single 12" "wilson double 12" "clover double 12" "wilson half 12" "staggered single 12" "wilson single 8" "clover single 8"; do
  set -- $row; j=$R/dslash-$1-$2-$3-$SECONDS.json
  GLUON_TUNE_CACHE=$R/tc/$1-$2-$3.json timeout 60 $B/gluon bench dslash --operator $1 --precision $2 --recon $3 \
    --lattice 32,32,32,32 --iterations 60 --ab-env GLUON_SPINOR_LOAD_HINT=0,1,2,3 --json > $j 2>>$R/bench.log
  python3 - "$j" "$row" <<'PY' | tee -a $OUT/sum.txt
import json, sys
d = json.load(open(sys.argv[1]))
runs = d['ab']['runs']
print('%-20s plain %.3f  ' % (sys.argv[2], d['fraction_of_copy']) +
      '  '.join('%s:%.3f(%.0f)' % (r['values'][0] if isinstance(r['values'], list) else r['values'], r['fraction_of_copy'], r['gflops']) for r in runs))
PY
  [[ $((SECONDS-S)) -gt 395 ]] && break
done
echo "done $((SECONDS-S)) s"
tar -C $OUT -cf $OUT/r.tar r && rm -rf $R
