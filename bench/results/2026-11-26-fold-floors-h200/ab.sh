#!/usr/bin/env bash
# A/B of the Wilson-family folds (GLUON_WILSON_FOLD: unset = the measured rule, all, 0) on the
# Wilson and clover BiCGstab and CGNR solves, double / double-single / double-half, 32^4, tol
# 1e-10. Each mode keeps its own tune cache. Usage: R=dir ROUND=k [MODES="default all 0"] bash ab.sh
set -u
G=${GLUON:-build-cuda/bin/gluon}
mkdir -p "$R"
for mode in ${MODES:-default all 0}; do
  env_mode=$mode; [[ $mode == default ]] && env_mode=
  for row in "wilson --kappa 0.12" "clover --kappa 0.12 --csw 1.0"; do
    op=${row%% *}
    for solver in bicgstab cgnr; do
      for sloppy in none single half; do
        f=$R/$mode-$op-$solver-$sloppy-r$ROUND.json
        GLUON_WILSON_FOLD=$env_mode GLUON_TUNE_CACHE=$R/tune-$mode.json "$G" bench solver --backend cuda --operator $row \
          --solver $solver --precision double --sloppy-precision $sloppy --recon 12 --tol 1e-10 \
          --lattice 32,32,32,32 --json >"$f" 2>>"$R/err.txt" || echo "FAILED $f" >>"$R/err.txt"
        python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"{sys.argv[2]:>7} {j['operator']:>7} {j['solver']:>9} {j['precision']:>13} it {j['iterations']:4d} res {j['true_residual']:.2e} {j['seconds']*1e3:8.2f} ms {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:7.1f}\")" "$f" "$mode" >>"$R/summary-r$ROUND.txt" 2>>"$R/err.txt"
      done
    done
  done
done
