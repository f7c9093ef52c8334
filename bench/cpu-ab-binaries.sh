#!/usr/bin/env bash
# Sourced by the CPU A/B trip scripts under bench/results/ that run on the GPU machine's host
# binaries built on the development VM: those travel xz-compressed in build-ab/ (an ignored
# folder, passed with the device run's `carry`). Unpacks every build-ab/*.xz into $B (default
# /tmp/ab, once a machine), records the host in $OUT/machine.txt and stops the trip when a
# library the binaries need is missing there.
#   OUT=<dir> source bench/cpu-ab-binaries.sh   (then run $B/gluon; ab_tests below for test binaries)
# OUT must be set (the folder is made here).
OUT=${OUT:?OUT must name the folder whose files come back}
mkdir -p "$OUT"
B=${B:-/tmp/ab}
if [ ! -x "$B/gluon" ]; then
  mkdir -p "$B" && for f in build-ab/*.xz; do xz -dc "$f" > "$B/$(basename "$f" .xz)"; chmod +x "$B/$(basename "$f" .xz)"; done
fi
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|L2|L3|NUMA|MHz" | cut -c1-200; } > "$OUT/machine.txt" 2>&1
if ldd "$B/gluon" | grep -i "not found"; then
  echo "missing libraries"
  exit 1
fi
# ab_tests NAME TEST_BINARY "VAR=value"...: the unpacked test binary once under each setting (4
# OpenMP threads), its log in $OUT/test-NAME-VAR-value.log and one line of outcome each.
ab_tests() {
  local name=$1 bin=$2 env log
  shift 2
  for env in "$@"; do
    log=$OUT/test-$name-${env%%=*}-${env##*=}.log
    env "$env" OMP_NUM_THREADS=4 "$B/$bin" > "$log" 2>&1
    echo "$name tests with $env: rc $? ($(grep -E '^\[  (PASSED|FAILED)' "$log" | tr '\n' ' '))"
  done
}
# ab_rounds VAR VALUES: the dslash rows of $CASES (default the Wilson/clover table; a row is
# <operator w|c|s|i><precision d|s|h><recon>, e.g. wd12 or ss8), each in one process that times
# VAR at each of the comma-separated VALUES interleaved (gluon bench dslash --ab-env), in every
# round of $ROUNDS (default "1 2"), at $LAT (default 48^4), 16 OpenMP threads; $OUT/<row>-<round>.json
# and one line a process in $OUT/summary.txt (each value's GFLOP/s, fraction of the copy and ratio
# to the first value).
ab_rounds() {
  local var=$1 values=$2 k row op p label start=$SECONDS
  for k in ${ROUNDS:-1 2}; do
    for row in ${CASES:-wd12 cd12 ws12 cs12 wh12 ch12 ws8 cs8 wd8 wh8}; do
      op=wilson; [ ${row:0:1} = c ] && op=clover; [ ${row:0:1} = s ] && op=staggered; [ ${row:0:1} = i ] && op=improved-staggered
      p=double; [ ${row:1:1} = s ] && p=single; [ ${row:1:1} = h ] && p=half
      label=$row-$k
      OMP_NUM_THREADS=16 $B/gluon bench dslash --backend cpu --lattice ${LAT:-48,48,48,48} --iterations 20 --json \
        --operator $op --precision $p --recon ${row:2} --ab-env "$var=$values" > $OUT/$label.json 2> $OUT/$label.err
      python3 -c "
import json
d = json.load(open('$OUT/$label.json'))
runs = d['ab']['runs']
base = runs[0]['gflops']
print('%-10s %6.1f GFLOP/s %.3f of copy %5.1f GB/s | %s' % ('$label', d['gflops'], d['fraction_of_copy'], d['copy_gbs'],
      '  '.join('%s %6.1f (%.3f, x%.3f)' % ('/'.join(r['values']), r['gflops'], r['fraction_of_copy'], r['gflops'] / base) for r in runs)))
" 2>&1 | tee -a $OUT/summary.txt
    done
    echo "round $k at $((SECONDS - start)) s" | tee -a $OUT/summary.txt
  done
}
