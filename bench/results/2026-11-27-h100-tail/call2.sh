#!/usr/bin/env bash
# Call 2 (the same warm nvidia-h100-x1 machine as trip1.sh, build-cuda kept): the tail's size per
# SM against one thread a site, in one process (--ab-env, the queued timing), Wilson single r8 and r12.
export GLUON_TUNE_CACHE=$OUT/tc.json
for r in 8 12; do
  build-cuda/bin/gluon bench dslash --lattice 32,32,32,32 --iterations 200 --json --operator wilson --precision single --recon $r \
    --ab-env GLUON_GPU_SITE_THREADS=1,tail,tail,tail,tail --ab-env GLUON_GPU_TAIL_SITES_PER_SM=512,32,64,128,256 > $OUT/ab$r.json 2>$OUT/err$r.txt
  python3 -c "
import json; d=json.load(open('$OUT/ab$r.json')); print('r$r plain %.3f' % d['fraction_of_copy'])
for run in d['ab']['runs']: print('  ', run['values'], '%.1f us %.3f' % (1000*run['dslash_ms'], run['fraction_of_copy']))"
done
