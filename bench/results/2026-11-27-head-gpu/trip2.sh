#!/usr/bin/env bash
# Trip 2 (the same warm machine as trip 1): issue 3's table at 32^4 with the tune cache trip 1's
# tests left (bench/solver-gpu.sh's dslash, solver and cgnr parts), then Wilson CGNE in double
# and double-half. Results in $OUT/r (tarred), the table in $OUT/summary.txt.
export PATH=/usr/local/cuda/bin:$PATH; S=$SECONDS; R=$OUT/r; mkdir -p $R
build-cuda/bin/gluon info > $R/info.txt 2>&1
OUT=$R PARTS="dslash solver cgnr" timeout 500 bash bench/solver-gpu.sh > $R/stdout.txt 2>&1
for sloppy in none half; do
  f=$R/cgne-wilson-$sloppy.json
  timeout 60 build-cuda/bin/gluon bench solver --backend cuda --operator wilson --kappa 0.12 --solver cgne \
    --precision double --sloppy-precision $sloppy --recon 12 --tol 1e-10 --lattice 32,32,32,32 --json > $f 2>>$R/bench.log &&
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"solver {'wilson':>19} {j['precision']:>13} {j['solver']:>9} it {j['iterations']:5d} res {j['true_residual']:.2e} {j['seconds']:7.3f} s {j['gflops']:7.1f} GFLOP/s = {100*j['fraction_of_operator']:5.1f}% of op {j['operator_gflops']:7.1f}\")" $f >> $R/summary.txt
done
echo "table done $((SECONDS-S)) s"; cp $R/summary.txt $OUT/summary.txt; tar -C $OUT -cf $OUT/r.tar r && rm -rf $R; cat $OUT/summary.txt
