#!/usr/bin/env bash
# How the solver's fraction of the bare operator depends on the solve's length: the Wilson
# (BiCGstab, CGNR) and staggered (CG) rows of bench/solver-gpu.sh at their usual parameters
# (kappa 0.12, mass 0.05) and closer to critical (kappa 0.124, mass 0.01), double, double-single
# and double-half, 32^4, tol 1e-10, one GPU. Builds the gluon target of the cuda preset first.
set -u
R=/tmp/sc; rm -rf $R; mkdir -p $R
S=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH GLUON_TUNE_CACHE=$R/tunecache.json
( cmake --preset cuda -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 && cmake --build build-cuda --target gluon -j16 > $R/build.log 2>&1 ) ||
  { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
build-cuda/bin/gluon info > $R/info.txt 2>&1
run() {  # name, then gluon bench solver flags
  local name=$1; shift
  timeout 120 build-cuda/bin/gluon bench solver --backend cuda --precision double --recon 12 --tol 1e-10 \
    --lattice 32,32,32,32 --json "$@" > $R/$name.json 2>> $R/bench.log || echo "FAILED $name" >> $R/bench.log
  python3 - "$R/$name.json" "$name" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
    print(f"{sys.argv[2]:34s} it {j['iterations']:5d} upd {j.get('reliable_updates', 0):3d} res {j['true_residual']:.2e} "
          f"{j['seconds']*1e3:8.1f} ms {j['gflops']:7.1f} GFLOP/s = {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:.1f}")
except Exception as e:
    print(sys.argv[2], "no result", e)
PY
}
for k in 0.12 0.124; do
  for s in none single half; do
    run wilson-bicgstab-k$k-$s --operator wilson --kappa $k --solver bicgstab --sloppy-precision $s
    run wilson-cgnr-k$k-$s --operator wilson --kappa $k --solver cgnr --sloppy-precision $s
  done
done
for m in 0.05 0.01; do
  for s in none single half; do
    run staggered-cg-m$m-$s --operator staggered --mass $m --solver cg --sloppy-precision $s
  done
done
echo "done at $((SECONDS - S)) s"
tar -czf $OUT/sc.tgz -C $R .
