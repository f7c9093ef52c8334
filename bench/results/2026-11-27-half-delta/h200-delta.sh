#!/usr/bin/env bash
# The delta sweep of h200-delta.txt: gluon bench solver (32^4, r12, weak field, tol 1e-10, 20 solves,
# the median), double-half, on the cuda build of the tree before the change (c9a3e51).
G=build-cuda/bin/gluon
export GLUON_TUNE_CACHE=$OUT/tc.json
for row in "wilson bicgstab" "clover bicgstab" "wilson cgnr" "clover cgnr" "staggered cg" "improved-staggered cg"; do
  set -- $row
  for d in 0.1 0.05 0.03 0.02; do
    echo -n "$1 $2 half delta $d: "
    $G bench solver --operator $1 --solver $2 --sloppy-precision half --delta $d --iterations 20 --json 2>/dev/null |
      python3 -c "import json,sys; d=json.load(sys.stdin); print(d['iterations'], round(d['gflops'],1), round(d['fraction_of_operator'],3), d.get('reliable_updates',''))"
  done
done
