#!/usr/bin/env bash
# Ad-hoc, call 2: the staggered and improved-staggered solves (double, double-single,
# double-half, tol 1e-10, 32^4), alternating the base binary (166b441) and this tree's, two
# rounds; then one profiled staggered double and double-single solve with each.
set -uo pipefail
R=$OUT
export PATH=/usr/local/cuda/bin:$PATH
S=$SECONDS
printf '%s\n' "staggered --mass 0.05" "improved-staggered --mass 0.05" > $R/solve-rows.txt
for round in 1 2; do
  for which in base fold; do
    G=build-cuda/bin/gluon; [[ $which == base ]] && G=build-base/bin/gluon
    mkdir -p $R/$which-$round
    while read -r op args; do
      for sloppy in none single half; do
        GLUON_TUNE_CACHE=$R/tune-$which.json $G bench solver --backend cuda --operator $op $args --precision double \
          --sloppy-precision $sloppy --recon 12 --tol 1e-10 --lattice 32,32,32,32 --json >$R/$which-$round/$op-$sloppy.json 2>>$R/bench.log
        python3 - $R/$which-$round/$op-$sloppy.json $which $round <<'PY' >>$R/summary.txt
import json, sys
j = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]:>4} r{sys.argv[3]} {j['operator']:>19} {j['precision']:>13} it {j['iterations']:4d} res {j['true_residual']:.2e} "
      f"{j['seconds']:.4f} s {j['gflops']:7.1f} GFLOP/s = {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:7.1f} ru {j['reliable_updates']}")
PY
      done
    done < $R/solve-rows.txt
    rm -rf $R/$which-$round
  done
  echo "round $round after $((SECONDS - S)) s"
done
for which in base fold; do
  G=build-cuda/bin/gluon; [[ $which == base ]] && G=build-base/bin/gluon
  for sloppy in none single; do
    GLUON_TUNE_CACHE=$R/tune-$which.json GLUON_PROFILE=1 $G bench solver --backend cuda --operator staggered --mass 0.05 --precision double \
      --sloppy-precision $sloppy --recon 12 --tol 1e-10 --lattice 32,32,32,32 > $R/profile-$which-$sloppy.txt 2>&1
  done
done
rm -f $R/solve-rows.txt; [[ -s $R/bench.log ]] || rm -f $R/bench.log
sort -k3,3 -k4,4 -k1,1 $R/summary.txt
echo "call 2 done after $((SECONDS - S)) s"
