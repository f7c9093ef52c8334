#!/usr/bin/env bash
# Device call 2: mixed solves (tol 1e-10, 32^4, recon 12) alternating, for 2 rounds:
#   base  8e133c3 (delta 0.1; the old reliable update)
#   d0.1  this tree with --delta 0.1 (the fused reliable-update kernels alone)
#   def   this tree with its default delta (0.01 single, 0.1 half)
#   d1e-3 this tree with --delta 0.001 (single only)
# then pure double with this tree, and profiles of the staggered and clover double-single solves.
set -uo pipefail
R=$OUT
export PATH=/usr/local/cuda/bin:$PATH
S=$SECONDS
row() {  # name round json
  python3 - "$3" "$1" "$2" <<'PY' >>$R/summary.txt
import json, sys
j = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]:>5} r{sys.argv[3]} {j['operator']:>19} {j['precision']:>13} it {j['iterations']:4d} res {j['true_residual']:.2e} "
      f"{j['seconds']:.4f} s {j['gflops']:7.1f} GFLOP/s = {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:7.1f} "
      f"ru {j['reliable_updates']} delta {j.get('reliable_delta', 0.1)}")
PY
}
solve() {  # name binary sloppy op args... -> json on stdout
  local name=$1 g=$2 sloppy=$3 op=$4; shift 4
  local cache=new; [[ $name == base ]] && cache=base
  GLUON_TUNE_CACHE=$R/tune-$cache.json $g bench solver --backend cuda --operator $op "$@" --precision double \
    --sloppy-precision $sloppy --recon 12 --tol 1e-10 --lattice 32,32,32,32 --json 2>>$R/bench.log
}
NEW=build-cuda/bin/gluon BASE=build-base/bin/gluon
for round in 1 2; do
  while read -r op args; do
    for sloppy in single half; do
      solve base $BASE $sloppy $op $args >$R/x.json && row base $round $R/x.json
      solve d0.1 $NEW $sloppy $op $args --delta 0.1 >$R/x.json && row d0.1 $round $R/x.json
      if [[ $sloppy == single ]]; then
        solve def $NEW $sloppy $op $args >$R/x.json && row def $round $R/x.json
        solve d1e-3 $NEW $sloppy $op $args --delta 0.001 >$R/x.json && row d1e-3 $round $R/x.json
      fi
    done
  done <bench/solve-table.txt
  echo "round $round after $((SECONDS - S)) s"
done
while read -r op args; do
  solve def $NEW none $op $args >$R/x.json && row def 1 $R/x.json
done <bench/solve-table.txt
rm -f $R/x.json
for op in staggered clover; do
  args="--mass 0.05"; [[ $op == clover ]] && args="--kappa 0.12 --csw 1.0"
  GLUON_TUNE_CACHE=$R/tune-new.json GLUON_PROFILE=1 $NEW bench solver --backend cuda --operator $op $args --precision double \
    --sloppy-precision single --recon 12 --tol 1e-10 --lattice 32,32,32,32 >$R/profile-$op-single.txt 2>&1
done
cp $R/tune-new.json $R/tunecache.json; rm -f $R/tune-*.json
[[ -s $R/bench.log ]] || rm -f $R/bench.log
sort -k3,3 -k4,4 -k1,1 $R/summary.txt
echo "call 2 done after $((SECONDS - S)) s"
