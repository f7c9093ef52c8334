#!/usr/bin/env bash
# gluon hpl on one H100/H200 (and two GPUs when present). Run by the lead on the GPU machine:
#
#   OUT=<dir> GLUON=build-cuda/bin/gluon bash bench/hpl-gpu.sh
#
# Measures, all in one run, into $OUT:
#   dgemm.txt          cuBLAS DGEMM rate on device-resident operands (the reference rate)
#   small-*.txt        N=$NS: GPU only, CPU only, hybrid (adaptive split) - the split must never
#                      be slower than the better of the other two
#   hybrid-*.txt       N=$N: hybrid twice with one split table file (split-table.txt): the table
#                      converges over the updates and is reused by the second run
#   gpu-incore.txt     N=$N: GPU only with the whole device memory for the tiles
#   gpu-ooc.txt        N=$N: GPU only with --gpu-memory-limit at half of the matrix bytes
#   grid1x2.txt        (2 GPUs and mpirun) 1x2 grid, N2 = N*sqrt(2) (the same N^2 per GPU)
#   summary.txt        the T/V lines and rates; progress lines go to the *.err files
# Budget: about 6 minutes on an H100 with the defaults (N=40000, NB=1024); N, NB, NS override.
set -uo pipefail
GLUON=${GLUON:-build-cuda/bin/gluon}
OUT=${OUT:?set OUT to the output directory}
N=${N:-40000}
NB=${NB:-1024}
NS=${NS:-16000}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
CORES=$(nproc)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$CORES} OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-$CORES}

dat() {  # dat N NB P Q
  printf '%s\n' "HPLinpack benchmark input file" "Innovative Computing Laboratory, University of Tennessee" \
    "HPL.out      output file name (if any)" "6            device out (6=stdout,7=stderr,file)" \
    "1            # of problems sizes (N)" "$1           Ns" "1            # of NBs" "$2           NBs" \
    "0            PMAP process mapping (0=Row-,1=Column-major)" "1            # of process grids (P x Q)" \
    "$3           Ps" "$4           Qs" "16.0         threshold" "1            # of panel fact" \
    "2            PFACTs (0=left, 1=Crout, 2=Right)" "1            # of recursive stopping criterium" \
    "8            NBMINs (>= 1)" "1            # of panels in recursion" "2            NDIVs" \
    "1            # of recursive panel fact." "1            RFACTs (0=left, 1=Crout, 2=Right)" \
    "1            # of broadcast" "1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)" \
    "1            # of lookahead depth" "1            DEPTHs (>=0)" "2            SWAP (0=bin-exch,1=long,2=mix)" \
    "64           swapping threshold" "0            L1 in (0=transposed,1=no-transposed) form" \
    "0            U  in (0=transposed,1=no-transposed) form" "1            Equilibration (0=no,1=yes)" \
    "8            memory alignment in double (> 0)"
}

run() {  # run NAME TIMEOUT_S ARGS...  (gluon hpl ARGS; stdout to NAME.txt, stderr to NAME.err)
  local name=$1 t=$2; shift 2
  echo "== $name: $*" | tee -a "$OUT/summary.txt"
  timeout "$t" "$@" > "$OUT/$name.txt" 2> "$OUT/$name.err"
  local rc=$?
  grep -E "^W[RC][0-9]|PASSED|FAILED|DGEMM rate|^updates" "$OUT/$name.txt" | tee -a "$OUT/summary.txt"
  [ $rc -eq 0 ] || echo "   (exit status $rc; see $name.err)" | tee -a "$OUT/summary.txt"
}

{
  echo "# bench/hpl-gpu.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) N=$N NB=$NB NS=$NS cores=$CORES"
  nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv 2>/dev/null
} > "$OUT/summary.txt"
"$GLUON" info > "$OUT/info.txt" 2>&1
dat "$N" "$NB" 1 1 > "$OUT/HPL-N.dat"
dat "$NS" "$NB" 1 1 > "$OUT/HPL-small.dat"
dat 2000 "$NB" 1 1 > "$OUT/HPL-tiny.dat"

# Reference: cuBLAS DGEMM with k = NB on device-resident operands.
run dgemm 120 "$GLUON" hpl "$OUT/HPL-tiny.dat" --backend cuda --dgemm "16384,16384,$NB" --progress 0 --json "$OUT/dgemm.json"
run dgemm-k2048 60 "$GLUON" hpl "$OUT/HPL-tiny.dat" --backend cuda --dgemm 16384,16384,2048 --progress 0

# Small N: GPU only, CPU only, hybrid (fresh table, then reused).
run small-gpu 120 "$GLUON" hpl "$OUT/HPL-small.dat" --backend cuda --json "$OUT/small-gpu.json"
run small-cpu 150 "$GLUON" hpl "$OUT/HPL-small.dat" --backend cpu --json "$OUT/small-cpu.json"
rm -f "$OUT/split-small.txt"
run small-hybrid-1 120 "$GLUON" hpl "$OUT/HPL-small.dat" --backend hybrid --split-table "$OUT/split-small.txt"
run small-hybrid-2 120 "$GLUON" hpl "$OUT/HPL-small.dat" --backend hybrid --split-table "$OUT/split-small.txt" \
  --json "$OUT/small-hybrid.json"

# Large N: hybrid with a persistent table (twice), GPU only in core, GPU only out of core.
rm -f "$OUT/split-table.txt"
run hybrid-1 240 "$GLUON" hpl "$OUT/HPL-N.dat" --backend hybrid --split-table "$OUT/split-table.txt"
cp "$OUT/split-table.txt" "$OUT/split-table-after-run1.txt" 2>/dev/null
run hybrid-2 240 "$GLUON" hpl "$OUT/HPL-N.dat" --backend hybrid --split-table "$OUT/split-table.txt" \
  --json "$OUT/hybrid.json"
run gpu-incore 240 "$GLUON" hpl "$OUT/HPL-N.dat" --backend cuda --json "$OUT/gpu-incore.json"
HALF=$(( N * N * 8 / 2 ))
run gpu-ooc 240 "$GLUON" hpl "$OUT/HPL-N.dat" --backend cuda --gpu-memory-limit "$HALF" --json "$OUT/gpu-ooc.json"

# Two GPUs, 1x2 grid, the same memory per GPU.
NGPU=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$NGPU" -ge 2 ] && command -v mpirun >/dev/null; then
  N2=$(python3 -c "print(int($N*2**0.5)//$NB*$NB)")
  dat "$N2" "$NB" 1 2 > "$OUT/HPL-1x2.dat"
  run grid1x2 300 mpirun -np 2 --oversubscribe -x OMP_NUM_THREADS=$((CORES / 2)) -x OPENBLAS_NUM_THREADS=$((CORES / 2)) \
    "$GLUON" hpl "$OUT/HPL-1x2.dat" --backend cuda --json "$OUT/grid1x2.json"
fi
# The targets of issue 5, from the JSON summaries (missing runs are reported as missing).
python3 - "$OUT" <<'PY' | tee -a "$OUT/summary.txt"
import json, os, sys
out = sys.argv[1]
def rate(name):
    try:
        j = json.load(open(os.path.join(out, name + ".json")))
    except Exception:
        return None
    if name == "dgemm":
        return j.get("dgemm", {}).get("gflops")
    runs = j.get("runs", [])
    return runs[0]["gflops"] if runs and runs[0].get("passed") else None
r = {k: rate(k) for k in ["dgemm", "small-gpu", "small-cpu", "small-hybrid", "hybrid", "gpu-incore", "gpu-ooc", "grid1x2"]}
print("# rates (GFLOP/s):", {k: (round(v, 1) if v else None) for k, v in r.items()})
def ratio(label, a, b, target):
    if r.get(a) and r.get(b):
        q = r[a] / r[b]
        print(f"# {label}: {q:.3f} (target >= {target}) {'met' if q >= target else 'NOT met'}")
    else:
        print(f"# {label}: not measured ({a} or {b} missing)")
ratio("in-core GPU-only HPL / cuBLAS DGEMM", "gpu-incore", "dgemm", 0.75)
ratio("in-core hybrid HPL / cuBLAS DGEMM", "hybrid", "dgemm", 0.75)
ratio("out-of-core / in-core (GPU only)", "gpu-ooc", "gpu-incore", 0.70)
if r.get("grid1x2") and r.get("gpu-incore"):
    q = r["grid1x2"] / (2 * r["gpu-incore"])
    print(f"# 1x2 / (2 x one GPU): {q:.3f} (target >= 0.85) {'met' if q >= 0.85 else 'NOT met'}")
if r.get("small-hybrid") and r.get("small-gpu") and r.get("small-cpu"):
    best = max(r["small-gpu"], r["small-cpu"])
    print(f"# hybrid / best of GPU-only and CPU-only at N=small: {r['small-hybrid'] / best:.3f} (target >= 1)")
PY
echo "# split tables (log2(flops) samples gpu_fraction gpu_gflops cpu_gflops core fractions):" >> "$OUT/summary.txt"
cat "$OUT/split-table.txt" >> "$OUT/summary.txt" 2>/dev/null
cat "$OUT/summary.txt"
