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
