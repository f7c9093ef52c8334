#!/usr/bin/env bash
# Call 1 (GPU machine, carry .deps): the Wilson dslash with its 8 links prefetched at the site's
# start (GLUON_LINK_PREFETCH: 0 none, 1 into L1, 2 into L2), one binary, the modes interleaved,
# two rounds in swapped order; registers of the r8/r12 body kernels (cuobjdump -res-usage) and the
# prefetch instructions in their SASS.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
S=$SECONDS
{ cmake --preset cuda >$R/configure.log 2>&1 && cmake --build build-cuda -j 16 --target gluon >$R/build.log 2>&1; } ||
  { tail -40 $R/build.log $R/configure.log; exit 1; }
echo "build done after $((SECONDS - S)) s" >>$R/stdout.txt
for p in single double; do
  for r in r8 r12; do
    o=build-cuda/src/CMakeFiles/gluon_qcd.dir/qcd/dirac/wilson_dslash_${p}_${r}_kernels.cpp.o
    echo "== $o"
    cuobjdump -res-usage "$o" 2>&1 | awk '/Function/ {f=$2} /REG:/ {print $0 "  " f}' | c++filt | grep -E "WilsonBody" |
      sed -E 's/gluon::(runtime::|qcd::|qcd::detail::)//g' | cut -c1-220
    echo "prefetch instructions: $(cuobjdump -sass "$o" | grep -cE 'CCTL|PREFETCH')"
  done
done >$R/gpu/res-usage.txt 2>&1
rows=("wilson single 8" "wilson single 12" "clover single 8" "wilson double 8" "wilson double 12" "wilson half 8")
for round in 1 2; do
  order="0 1 2"; [[ $round == 2 ]] && order="2 1 0"
  for row in "${rows[@]}"; do
    set -- $row
    for m in $order; do
      f=$R/gpu/dslash-$1-$2-r$3-pf$m-round$round.json
      GLUON_LINK_PREFETCH=$m GLUON_TUNE_CACHE=$R/gpu/tunecache-pf$m.json build-cuda/bin/gluon bench dslash --backend cuda \
        --operator $1 --precision $2 --recon $3 --lattice 32,32,32,32 --json >$f 2>>$R/gpu/bench.log || echo "FAIL $f" >>$R/stdout.txt
      python3 -c "
import json; j=json.load(open('$f'))
print(f\"$1 $2 r$3 pf$m round$round {j['gflops']:8.1f} GFLOP/s {100*j['fraction_of_copy']:5.1f}% of copy {j['copy_gbs']:.0f}; back to back {100*j.get('back_to_back_fraction_of_copy',0):5.1f}%\")" >>$R/summary.txt 2>&1
    done
  done
  echo "round $round done at $((SECONDS - S)) s" >>$R/stdout.txt
done
rm -f $R/build.log $R/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
cat $R/stdout.txt; cat $R/gpu/res-usage.txt | grep -E "prefetch|==|single.*8>, false>|float, \(Reconstruct\)1>, false" | head -30
sort $R/summary.txt
echo "total $((SECONDS - S)) s"
