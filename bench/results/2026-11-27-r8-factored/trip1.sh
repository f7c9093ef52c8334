#!/usr/bin/env bash
# Trip 1 (one GPU): r8 links applied in the factored form (FactoredLink, reconstruct.h) against
# the pivoted matrix of the commit before (cde5862), in the same call. STAGE picks the part (the
# machine stays warm between calls):
#   build  configure the cuda preset and build everything (the tree: the factored form)
#   base   the r8 Wilson/clover kernel objects again from the commit before's two headers
#          (factored.patch, or the diff PATCH names, reversed on copies of them, in an include
#          folder searched first),
#          put into a copy of libgluon_qcd.a, and gluon linked again from it: build-cuda/bin/gluon-base
#   bench  per call, one process a row, alternating the two binaries, each with its own tune cache
#   test   ctest -L gpu
export PATH=/usr/local/cuda/bin:$PATH; S=$SECONDS
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STAGE=${STAGE:-all}
B=build-cuda
nvidia-smi --query-gpu=name --format=csv,noheader
if [ "$STAGE" = build ] || [ "$STAGE" = all ]; then
  { cmake --preset cuda > $OUT/configure.log 2>&1 && cmake --build $B -j 16 > $OUT/build.log 2>&1; } ||
    { grep -E "error|rror:" $OUT/build.log | head -30; tail $OUT/configure.log; exit 1; }
  echo "built $((SECONDS-S)) s"; rm -f $OUT/build.log
fi
if [ "$STAGE" = base ] || [ "$STAGE" = all ]; then
  OV=$B/base-overlay; rm -rf $OV; mkdir -p $OV/gluon/qcd $B/base-obj
  cp include/gluon/qcd/reconstruct.h include/gluon/qcd/gauge_accessor.h $OV/gluon/qcd/
  (cd $OV && patch -s -R -p2 < "${PATCH:-$HERE/factored.patch}") || { echo "patch failed"; exit 1; }
  grep -c FactoredLink $OV/gluon/qcd/reconstruct.h
  for f in ${BASE_FILES:-wilson_dslash_single_r8 wilson_dslash_double_r8 wilson_dslash_half_r8}; do
    cmd=$(python3 -c "
import json,sys
for e in json.load(open('$B/compile_commands.json')):
  if e['file'].endswith('/${f}_kernels.cpp'): print(e['command'])")
    cmd=${cmd/ -I/ -I$PWD/$OV -I}
    cmd=${cmd/-o src\/CMakeFiles\/gluon_qcd.dir\/qcd\/dirac\//-o base-obj\/}
    (cd $B && eval "$cmd") > $OUT/base-$f.log 2>&1 &
  done
  wait; echo "base objects $((SECONDS-S)) s"; ls -la $B/base-obj
  rm -f $B/base-obj/libgluon_qcd.a; cp $B/src/libgluon_qcd.a $B/base-obj/libgluon_qcd.a && ar r $B/base-obj/libgluon_qcd.a $B/base-obj/*.o || exit 1
  link=$(cd $B && ninja -t commands bin/gluon | tail -1)
  link=${link/ src\/libgluon_qcd.a / base-obj\/libgluon_qcd.a }
  link=${link/-o bin\/gluon /-o bin\/gluon-base }
  (cd $B && eval "$link") || exit 1
  echo "base linked $((SECONDS-S)) s"
fi
if [ "$STAGE" = bench ] || [ "$STAGE" = all ]; then
  row() {  # round binary(new|base) operator precision recon
    local bin=$B/bin/gluon; [ "$2" = base ] && bin=$B/bin/gluon-base
    GLUON_TUNE_CACHE=$OUT/tc-$2.json $bin bench dslash --lattice 32,32,32,32 --iterations 200 --json \
      --operator $3 --precision $4 --recon $5 > $OUT/r.json 2>/dev/null
    python3 -c "
import json; d=json.load(open('$OUT/r.json')); print('%-2s %-4s %-20s %8.1f %.3f b2b %.3f op %.3f %.1f us copy %.0f' % ('$1', '$2', '$3 $4 $5', d['gflops'], d['fraction_of_copy'], d['back_to_back_fraction_of_copy'], d['operator_fraction_of_copy'], 1000*d['dslash_ms'], d['copy_gbs']))" | tee -a $OUT/sum.txt
  }
  for k in 1 2; do
    IFS=, read -ra rows <<< "${ROWS:-wilson single 8,clover single 8,wilson double 8,wilson half 8,clover half 8}"
    for r in "${rows[@]}"; do
      row $k new $r; row $k base $r
    done
  done
  rm -f $OUT/r.json; echo "bench $((SECONDS-S)) s"
fi
if [ "$STAGE" = test ] || [ "$STAGE" = all ]; then
  export GLUON_TUNE_CACHE=$OUT/tc-test.json
  [ -d .deps/testdata/gauge ] && export GLUON_TESTDATA=$PWD/.deps/testdata
  (cd $B && timeout 400 ctest -L gpu -j 4 --output-on-failure > $OUT/ctest-gpu.log 2>&1); echo "ctest rc $? $((SECONDS-S)) s"
  grep -E "tests passed|Failed|FAILED" $OUT/ctest-gpu.log | head -20
fi
echo "done $((SECONDS-S)) s"
