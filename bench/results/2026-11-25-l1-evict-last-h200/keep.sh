#!/usr/bin/env bash
# Ad-hoc, one nvidia-h200 call: A/B of the Wilson dslash loading its neighbour spinors with L1 evict-last
# (ld.global.nc.L1::evict_last; GLUON_WILSON_KEEP_NEIGHBOURS 0 / 1 in src/qcd/dirac/wilson_dslash_impl.h).
# Builds both binaries, runs the GPU Wilson and solver tests on the evict-last one, then the
# Wilson/clover rows of the dslash table at 32^4 alternating 0 and 1, each side with its own tune
# cache, two rounds. Results in $OUT/keep.tgz.
set -uo pipefail
R=$OUT; K=$R/keep; mkdir -p $K
command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
export NCCL_NVLS_ENABLE=0
S=$SECONDS
{ cmake --preset cuda >$K/configure.log 2>&1 && cmake --build build-cuda -j16 --target gluon gpu_dirac_wilson_test gpu_solver_test >$K/build0.log 2>&1; } || { tail -30 $K/build0.log; exit 1; }
cp build-cuda/bin/gluon /tmp/gluon-0
sed -i 's/#define GLUON_WILSON_KEEP_NEIGHBOURS 0/#define GLUON_WILSON_KEEP_NEIGHBOURS 1/' src/qcd/dirac/wilson_dslash_impl.h
cmake --build build-cuda -j16 --target gluon gpu_dirac_wilson_test gpu_solver_test >$K/build1.log 2>&1 || { tail -30 $K/build1.log; exit 1; }
cp build-cuda/bin/gluon /tmp/gluon-1
echo "builds done after $((SECONDS - S)) s"
ctest --test-dir build-cuda -R "DiracWilsonGpu|SolverGpu" -j 4 --output-on-failure >$K/ctest-keep1.log 2>&1
tail -3 $K/ctest-keep1.log
for round in 1 2; do
  for v in 0 1; do
    while read -r op prec recon; do
      [[ $op == wilson || $op == clover ]] || continue
      f=$K/r$round-k$v-$op-$prec-r$recon.json
      GLUON_TUNE_CACHE=$K/tune-$v.json /tmp/gluon-$v bench dslash --backend cuda --operator $op --precision $prec \
        --recon $recon --lattice 32,32,32,32 --json >$f 2>>$K/bench.log
      python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"round $round keep $v {j['operator']:>7} {j['precision']:>7} r{j['recon']:<2} hop {j['gflops']:7.1f} {100*j['fraction_of_copy']:5.1f}% b2b {100*j['back_to_back_fraction_of_copy']:5.1f}% | M {j['operator_gflops']:7.1f} {100*j['operator_fraction_of_copy']:5.1f}%\")" $f | tee -a $K/summary.txt
    done <bench/dslash-table.txt
  done
  (( SECONDS - S > 500 )) && break
done
sed -i 's/#define GLUON_WILSON_KEEP_NEIGHBOURS 1/#define GLUON_WILSON_KEEP_NEIGHBOURS 0/' src/qcd/dirac/wilson_dslash_impl.h
tar -C $K -czf $R/keep.tgz . && rm -rf $K
echo "done after $((SECONDS - S)) s"
