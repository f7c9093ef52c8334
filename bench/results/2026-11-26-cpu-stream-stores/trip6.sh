#!/usr/bin/env bash
# Call 6 on the Xeon host: is the process-to-process spread thread placement? Wilson single and
# double r12 and clover single r12 at 48^4 (plain stores, the default), OpenMP threads unbound (as
# every run before) against bound one to a core (OMP_PROC_BIND=close OMP_PLACES=cores),
# interleaved.
set -u
R=/tmp/nt6; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build.log 2>&1 ) || { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
export OMP_NUM_THREADS=16
one() {  # label env...
  local label=$1; shift
  env "$@" build/bin/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json $ARGS > $R/$label.json 2>&1
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
print('%-24s %8.1f GFLOP/s  %.3f of copy (%.1f GB/s nt, %.1f plain)' % ('$label', d['gflops'],
      d['fraction_of_copy'], d['copy']['copy_gbs'], d['copy']['kernel_copy_gbs']))
" | tee -a $R/summary.txt
}
ARGS="--operator wilson --precision single --recon 12"
for k in 1 2 3 4; do one ws12-free-$k OMP_PROC_BIND=false; one ws12-bound-$k OMP_PROC_BIND=close OMP_PLACES=cores; done
ARGS="--operator wilson --precision double --recon 12"
for k in 1 2; do one wd12-free-$k OMP_PROC_BIND=false; one wd12-bound-$k OMP_PROC_BIND=close OMP_PLACES=cores; done
ARGS="--operator clover --precision single --recon 12"
for k in 1 2; do one cs12-free-$k OMP_PROC_BIND=false; one cs12-bound-$k OMP_PROC_BIND=close OMP_PLACES=cores; done
echo "done at $((SECONDS - S)) s"
tar -czf $OUT/trip6.tgz -C $R .
