#!/usr/bin/env bash
# Call 1 (GPU machine, carry .deps): r8 links loaded a hop before their rebuild (kR8Pipelined).
# Builds the cuda preset (new), runs the GPU tests, keeps that binary, switches the pipeline off
# (.deps/r8-pipeline-off.patch; only the r8 dslash objects rebuild) for the base, then the r8
# dslash rows, both binaries interleaved, two rounds with the order swapped; registers and spills
# of the r8 kernels (cuobjdump -res-usage).
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export GLUON_TESTDATA=$PWD/.deps/testdata
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $? at $SECONDS s" >>"$R/stdout.txt"
cp build-cuda/bin/gluon build-cuda/gluon-new
res_usage() {
  for o in build-cuda/src/CMakeFiles/gluon_qcd.dir/qcd/dirac/wilson_dslash_*_r8_kernels.cpp.o; do
    echo "== $o"
    cuobjdump -res-usage "$o" 2>&1 | awk '/Function/ {f=$2} /REG:/ {print $0 "  " f}' | c++filt | grep -E "WilsonBody" |
      sed -E 's/gluon::(runtime::|qcd::|qcd::detail::)//g' | cut -c1-260
  done
}
res_usage >$R/gpu/res-usage-new.txt 2>&1
patch -p1 <.deps/r8-pipeline-off.patch >>$R/stdout.txt 2>&1
cmake --build build-cuda -j 16 --target gluon >$R/rebuild.log 2>&1 || { tail -30 $R/rebuild.log; exit 1; }
cp build-cuda/bin/gluon build-cuda/gluon-base
res_usage >$R/gpu/res-usage-base.txt 2>&1
patch -R -p1 <.deps/r8-pipeline-off.patch >>$R/stdout.txt 2>&1
echo "base rebuilt at $SECONDS s" >>$R/stdout.txt
rows=("wilson single" "clover single" "wilson double" "wilson half")
for round in 1 2; do
  order="new base"; [[ $round == 2 ]] && order="base new"
  for row in "${rows[@]}"; do
    set -- $row
    for b in $order; do
      f=$R/gpu/dslash-$1-$2-$b-r$round.json
      GLUON_TUNE_CACHE=$R/gpu/tunecache-$b.json build-cuda/gluon-$b bench dslash --backend cuda --operator $1 \
        --precision $2 --recon 8 --lattice 32,32,32,32 --json >$f 2>>$R/gpu/bench.log || echo "FAIL $f" >>$R/stdout.txt
      python3 -c "
import json; j=json.load(open('$f'))
print(f\"$1 $2 r8 $b r$round {j['gflops']:8.1f} GFLOP/s {100*j['fraction_of_copy']:5.1f}% of copy {j['copy_gbs']:.0f}; back to back {100*j.get('back_to_back_fraction_of_copy',0):5.1f}%\")" >>$R/summary.txt 2>&1
    done
  done
done
echo "ab done at $SECONDS s" >>$R/stdout.txt
rm -f $R/gpu/build.log $R/gpu/configure.log $R/rebuild.log
tar czf "$OUT/res.tgz" -C /tmp res
cat "$R/stdout.txt"; tail -3 "$R/gpu/ctest-gpu.log"; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
cat $R/summary.txt; grep -h "single.*8>, false>" $R/gpu/res-usage-*.txt | cut -c1-120 | head -8
echo "total $SECONDS s"
