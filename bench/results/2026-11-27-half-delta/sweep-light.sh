#!/usr/bin/env bash
# Half-sloppy solves at lighter quark masses on the CPU (gluon solve, 12 columns, tol 1e-10,
# r12): the thermalised 8^4 sample at kappa 0.15 (Wilson) and 0.14 (clover, c_sw 1), and a weak
# field (epsilon 0.3) at 16^4, kappa 0.124, for each delta. From the repository root:
#   SOLVER=bicgstab DELTAS="0.1 0.03 0.02 0.01" bash bench/results/2026-11-27-half-delta/sweep-light.sh
#   SOLVER=cgnr DELTAS="0.1 0.03 0.01" bash ...
#   SLOPPY=single SOLVER=bicgstab DELTAS="0.01 0.003 0.001" bash ...  (the sloppy precision, default half)
G=${GLUON:-build/bin/gluon}
L8888=${L8888:-../shared/testdata/gauge/lat.sample.l8888}
SOLVER=${SOLVER:-bicgstab}
run() { # label, delta, args...
  local lab=$1 d=$2; shift 2
  $G solve "$@" --solver "$SOLVER" --sloppy-precision "${SLOPPY:-half}" --delta "$d" --json --quiet --backend cpu > /tmp/sj.json 2>/tmp/se.txt ||
    { echo "$lab $d FAIL $(tail -c 200 /tmp/se.txt)"; return; }
  python3 -c "
import json; j=json.load(open('/tmp/sj.json')); c=j['columns']
print(f\"$lab delta=$d iters={j['iterations']} updates={sum(x['reliable_updates'] for x in c)} maxres={max(x['true_residual'] for x in c):.2e} s={j['solver_seconds']:.2f}\", flush=True)"
}
for d in ${DELTAS:-0.1 0.03 0.02 0.01}; do
  run "l8888 wilson k0.15" "$d" --gauge "$L8888" --operator wilson --kappa 0.15 --recon 12
  run "l8888 clover k0.14" "$d" --gauge "$L8888" --operator clover --kappa 0.14 --csw 1.0 --recon 12
  run "weak16e3 wilson k0.124" "$d" --start weak --lattice 16,16,16,16 --epsilon 0.3 --operator wilson --kappa 0.124 --recon 12
done
