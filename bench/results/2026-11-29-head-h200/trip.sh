#!/usr/bin/env bash
# The whole of issue 3's GPU standing read again at this tree on one H200 (call 1 of 3 builds:
# `bash bench/gpu-build.sh || exit 1`). Call 2: PARTS="tests dslash" (every gpu test, then the
# dslash table); call 3: PARTS="solver profile" and the multi-shift rows below. Fresh tune cache.
S=$SECONDS
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
OUT=$OUT PARTS="$PARTS" bash bench/solver-gpu.sh
if [[ " $PARTS " == *" solver "* ]]; then
  B=$PWD/build-cuda/bin
  for sl in none single half; do
    j=$OUT/multishift-staggered-eps0.6-$sl.json
    timeout 90 $B/gluon bench solver --solver multishift --operator staggered --mass 0.05 --epsilon 0.6 \
      --precision double --sloppy-precision $sl --recon 12 --lattice 32,32,32,32 --repeat 3 --json > $j 2>>$OUT/bench.log
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('multishift staggered eps 0.6 %-7s %5d it  %.4f s  %.3f of op  res %.1e' % ('$sl', d['iterations'], d['seconds'], d['fraction_of_operator'], d['true_residual']))" $j | tee -a $OUT/summary.txt
  done
fi
echo "trip done $((SECONDS - S)) s"
