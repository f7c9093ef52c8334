#!/usr/bin/env bash
# The CPU dslash table on the GPU machine's Xeon host with the copy reference at its new default
# size (4 x the last-level cache a buffer): separate processes, 48^4, 16 OpenMP threads, the
# default kernels; per round also `gluon bench copy` at the old default (256 MiB) and the new
# one. The binary (built on the 2-core VM, g++ 12) is carried xz-compressed in build-ab/.
#   ROUNDS="1 2" OUT=<dir> bash bench/results/2026-11-28-cpu-copy-size/table.sh
set -u
OUT=${OUT:?}
R=/tmp/tabout  # the JSON files; $OUT gets summary.txt and table.tgz (few files come back)
mkdir -p "$OUT" $R
S=$SECONDS
B=/tmp/tab; mkdir -p $B; [ -x $B/gluon ] || { xz -dc build-ab/gluon.xz > $B/gluon; chmod +x $B/gluon; }
export OMP_NUM_THREADS=16
one() {  # label args...
  local label=$1; shift
  $B/gluon bench dslash --backend cpu --lattice 48,48,48,48 --iterations 20 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
c = d['copy']
print('%-10s %7.1f GFLOP/s %6.1f GB/s  %.3f of copy %6.1f GB/s (%.0f MiB buffers)' % ('$label', d['gflops'], d['effective_gbs'], d['fraction_of_copy'], d['copy_gbs'], c['bytes_per_buffer'] / 2**20))
" 2>&1 | tee -a $OUT/summary.txt
}
for k in ${ROUNDS:-1 2}; do
  for mib in 256 0; do
    $B/gluon bench copy --backend cpu --size-mib $mib --iterations 20 --json > $R/copy-$mib-$k.json 2>/dev/null
    python3 -c "
import json; d = json.load(open('$R/copy-$mib-$k.json'))
print('copy %4.0f MiB %6.1f GB/s (non-temporal %.1f, kernel %.1f)' % (d['bytes_per_buffer'] / 2**20, d['copy_gbs'], d['nontemporal_copy_gbs'], d['kernel_copy_gbs']))" | tee -a $OUT/summary.txt
  done
  for row in ${ROWS:-"wd12:wilson:double:12" "ws12:wilson:single:12" "wh12:wilson:half:12" \
             "cd12:clover:double:12" "cs12:clover:single:12" "ch12:clover:half:12" \
             "sd12:staggered:double:12" "ss12:staggered:single:12" "sh12:staggered:half:12" \
             "id12:improved-staggered:double:12" "is12:improved-staggered:single:12" "ih12:improved-staggered:half:12" \
             "wd8:wilson:double:8" "ws8:wilson:single:8" "wh8:wilson:half:8" "cs8:clover:single:8"}; do
    IFS=: read -r lab op prec rec <<< "$row"
    one $lab-$k --operator $op --precision $prec --recon $rec
  done
  echo "round $k at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
done
tar -czf $OUT/table.tgz -C $R .
