#!/usr/bin/env bash
# The CPU dslash table at this tree on the GPU machine's Xeon host (issue 3's CPU goal: 60% of the
# copy), and one question about the 48^4 rows: at 48^4 a time slice of a double spinor field is
# 6912 tiles of 1536 B = 81 x 128 KiB, so the input rows at t - 1, t and t + 1 of one site fall
# in the same set of a 2 MiB 16-way L2 (and, 4 KiB apart in multiples, of the 48 KiB 12-way L1,
# with the z neighbours too). At 48x48x46x48 the slice is 6624 tiles (81920 B mod 128 KiB): no
# such aliasing in the L2. Same binary, separate processes alternating the two shapes; first the
# same question without arithmetic (../2026-11-28-cpu-stream-mix/streams.cpp, built here: the
# dslash's stream mix with its neighbour reads, unblocked and in 8 x 3 blocks, both shapes twice).
# Binary: build/bin/gluon of this tree built on the development VM (g++ 12), carried
# xz-compressed in build-ab/ (bench/cpu-ab-binaries.sh).
#   DEADLINE=570 OUT=<dir> bash bench/results/2026-12-07-cpu-head-table/trip.sh   (carry build-ab)
set -u
S=$SECONDS
source bench/cpu-ab-binaries.sh
R=/tmp/tabout; mkdir -p $R
VARIANTS="63 0 0 0 0 0 0;63 0 0 8 3 0 0" LATTICES="48x48x48x48 48x48x46x48 48x48x48x48 48x48x46x48" \
  OUT=$OUT/streams bash bench/results/2026-11-28-cpu-stream-mix/variants.sh
grep -hE "lattice|copy_nt|^mix|nb" $OUT/streams/streams-*.txt | head -40
echo "streams at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
export OMP_NUM_THREADS=16
left() { (( ${DEADLINE:-570} - (SECONDS - S) > 25 )); }
one() {  # label lattice args...
  local label=$1 lat=$2; shift 2
  left || return 0
  $B/gluon bench dslash --backend cpu --lattice $lat --iterations 20 --json "$@" > $R/$label.json 2> $R/$label.err
  python3 -c "
import json
d = json.load(open('$R/$label.json'))
print('%-14s %-12s %7.1f GFLOP/s %6.1f GB/s  %.3f of copy %6.1f GB/s' % ('$label', '$lat', d['gflops'], d['effective_gbs'], d['fraction_of_copy'], d['copy_gbs']))
" 2>&1 | tee -a $OUT/summary.txt
}
row() { IFS=: read -r lab op prec rec <<< "$1"; echo "$lab --operator $op --precision $prec --recon $rec"; }
for k in ${ROUNDS:-1 2 3}; do
  left || break
  # the shapes first (Wilson double, single and half r12), alternating
  for r in "wd12:wilson:double:12" "ws12:wilson:single:12" "wh12:wilson:half:12"; do
    set -- $(row $r); lab=$1; shift
    one $lab-48-$k 48,48,48,48 "$@"
    one $lab-46-$k 48,48,46,48 "$@"
  done
  for r in "cd12:clover:double:12" "cs12:clover:single:12" "ch12:clover:half:12" \
           "sd12:staggered:double:12" "ss12:staggered:single:12" "sh12:staggered:half:12" \
           "id12:improved-staggered:double:12" "is12:improved-staggered:single:12" "ih12:improved-staggered:half:12" \
           "wd8:wilson:double:8" "ws8:wilson:single:8" "wh8:wilson:half:8" "cs8:clover:single:8"; do
    set -- $(row $r); lab=$1; shift
    one $lab-48-$k 48,48,48,48 "$@"
  done
  echo "round $k at $((SECONDS - S)) s" | tee -a $OUT/summary.txt
done
tar -czf $OUT/table.tgz -C $R .
echo "done at $((SECONDS - S)) s"
