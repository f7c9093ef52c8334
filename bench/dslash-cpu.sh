#!/usr/bin/env bash
# gluon bench dslash on this machine's CPU for a list of binaries (e.g. before and after a change),
# interleaved: run 1 of every case with every binary, then run 2, ... so that a slow spell of a
# shared machine hits all of them alike. Before each run it waits (up to WAIT seconds) until the
# CPUs have been idle for a second (below 10% busy), and records the busy fraction it saw.
#
#   BINS="before=/tmp/gluon-before after=build/bin/gluon" OUT=dir bash bench/dslash-cpu.sh
#   RUNS=3 OPS="wilson clover" PRECS="double single" RECONS="18 12" LATTICES="16,16,16,16"
#
# Writes $OUT/<label>/<op>-<prec>-r<recon>-<lattice>-run<k>.json and $OUT/summary.txt (one line
# per run: GFLOP/s, effective GB/s, copy GB/s, fraction of copy, field order, busy fraction).
set -euo pipefail
BINS=${BINS:-"after=build/bin/gluon"}
RUNS=${RUNS:-3}
OPS=${OPS:-"wilson clover"}
PRECS=${PRECS:-"double single"}
RECONS=${RECONS:-"18 12"}
LATTICES=${LATTICES:-"16,16,16,16"}
ITER=${ITER:-100}
WAIT=${WAIT:-300}
OUT=${OUT:-bench/results/$(date -u +%Y-%m-%d)-cpu-dslash}
mkdir -p "$OUT"

busy() {  # fraction of CPU time not idle over one second
  local a b
  read -r -a a < <(head -1 /proc/stat)
  sleep 1
  read -r -a b < <(head -1 /proc/stat)
  local total=0 idle=$((b[4] + b[5] - a[4] - a[5]))
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  awk -v i="$idle" -v t="$total" 'BEGIN { printf "%.2f", (t > 0 ? 1 - i / t : 0) }'
}

wait_quiet() {
  local start=$SECONDS b
  while :; do
    b=$(busy)
    if awk -v b="$b" 'BEGIN { exit !(b < 0.10) }' || ((SECONDS - start > WAIT)); then
      echo "$b"
      return
    fi
  done
}

printf '%-7s %-6s %-6s %-4s %-12s %-4s %9s %9s %9s %8s %-10s %5s\n' label op prec rec lattice run \
  gflops eff_gbs copy_gbs of_copy order busy | tee "$OUT/summary.txt"
for run in $(seq 1 "$RUNS"); do
  for lat in $LATTICES; do
    for op in $OPS; do
      for prec in $PRECS; do
        for rec in $RECONS; do
          for entry in $BINS; do
            label=${entry%%=*}
            bin=${entry#*=}
            mkdir -p "$OUT/$label"
            f="$OUT/$label/$op-$prec-r$rec-${lat//,/x}-run$run.json"
            b=$(wait_quiet)
            "$bin" bench dslash --backend cpu --operator "$op" --precision "$prec" --recon "$rec" \
              --lattice "$lat" --iterations "$ITER" --json > "$f"
            python3 - "$f" "$label" "$op" "$prec" "$rec" "$lat" "$run" "$b" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
f, label, op, prec, rec, lat, run, b = sys.argv[1:]
d = json.load(open(f))
print(f"{label:7s} {op:6s} {prec:6s} {rec:4s} {lat.replace(',', 'x'):12s} {run:4s} {d['gflops']:9.2f} "
      f"{d['effective_gbs']:9.2f} {d['copy_gbs']:9.2f} {d['fraction_of_copy']:8.3f} "
      f"{d.get('field_order', '-'):10s} {b:>5s}")
PY
          done
        done
      done
    done
  done
done
