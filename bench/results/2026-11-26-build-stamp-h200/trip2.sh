#!/usr/bin/env bash
# Call 2 (nvidia-h200, carry .deps): where a solve's idle time lies. The profile now gives each
# label's median and largest gap besides the mean: are the gaps before the operator's kernels
# (about 3% of a Wilson double CGNR solve) in every iteration, or a few long waits around the
# true-residual checks? Wilson CGNR and BiCGstab, clover CGNR, staggered CG, double, 32^4, each
# unprofiled (JSON) then with GLUON_PROFILE=1.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 GLUON_TUNE_CACHE=$R/tunecache.json
{ cmake --preset cuda >$R/configure.log 2>&1 && cmake --build build-cuda -j 16 >$R/build.log 2>&1; } || { tail -30 $R/build.log; exit 1; }
echo "build done after $SECONDS s"
B=build-cuda/bin/gluon
solve() {  # name, args
  local n=$1; shift
  $B bench solver --backend cuda --precision double --sloppy-precision none --recon 12 --tol 1e-10 \
    --lattice 32,32,32,32 "$@" --json >$R/$n.json 2>$R/$n.err
  GLUON_PROFILE=1 $B bench solver --backend cuda --precision double --sloppy-precision none --recon 12 --tol 1e-10 \
    --lattice 32,32,32,32 "$@" >$R/profile-$n.txt 2>&1
}
solve cgnr-wilson --operator wilson --kappa 0.12 --solver cgnr
solve bicgstab-wilson --operator wilson --kappa 0.12 --solver bicgstab
solve cgnr-clover --operator clover --kappa 0.12 --csw 1.0 --solver cgnr
solve cg-staggered --operator staggered --mass 0.05 --solver cg
rm -f $R/build.log $R/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
for f in $R/*.json; do python3 -c "
import json,sys; d=json.load(open('$f')); print('$f'.split('/')[-1], d['iterations'], round(d['seconds'],4), round(d['fraction_of_operator'],3), d['reliable_updates'])"; done
for f in $R/profile-*.txt; do echo "== $f"; head -14 $f; done
echo "total $SECONDS s"
