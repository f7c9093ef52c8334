#!/usr/bin/env bash
# gluon hpl on one H100/H200 (and 1xQ grids when there are more GPUs). Run on the GPU machine:
#
#   OUT=<dir> GLUON=build-cuda/bin/gluon bash bench/hpl-gpu.sh
#
# Measures, all in one run, into $OUT:
#   dgemm.txt            cuBLAS DGEMM rate (k = NB) on device-resident operands: the reference
#   dgemm-nb2.txt        the same with k = NB2
#   gpu-incore.txt       N (default: the largest multiple of NB whose matrix takes <= 55% of the
#                        GPU's memory, at most 100000): the device-resident LU at NB; and at NB2
#                        (gpu-incore-nb2), each compared with the DGEMM of its own k
#   mid-*.txt            N=$NM: resident, and out of core (--gpu-memory-limit at half of the
#                        matrix bytes: the windowed GPU LU)
#   big-ooc.txt          N out of core with the cap at half of A (when the host has 3x A's bytes)
#   small-*.txt          N=$NS: GPU only, CPU only, hybrid (auto placement), and the streamed
#                        hybrid twice with one split table (split-table.txt) to show it converge
#   grid1xQ.txt          (2 or 4 GPUs and mpirun) 1xQ grid, N*sqrt(Q) (the same N^2 per GPU)
#   summary.txt          the T/V lines, rates and the issue's ratios; progress lines in *.err
# Budget: about 5 minutes on an H200 with the defaults; N, NB, NB2, NM, NS override. PARTS picks
# a subset (words among dgemm incore mid small bigooc grid; default all), e.g. PARTS="dgemm incore
# grid" for the 1xQ ratio alone. Finally the
# whole $OUT is packed into $OUT/../hpl-gpu.tgz (the device tool returns a limited number of files).
set -uo pipefail
GLUON=${GLUON:-build-cuda/bin/gluon}
OUT=${OUT:?set OUT to the output directory}
NB=${NB:-512}
NB2=${NB2:-1024}
NM=${NM:-40000}
NS=${NS:-16000}
PARTS=${PARTS:-all}
want() { [[ $PARTS == all || " $PARTS " == *" $1 "* ]]; }
if [ -z "${N:-}" ]; then
  MEM_MIB=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null | head -1)
  N=$(python3 -c "import math; m=${MEM_MIB:-16000}*2**20*0.55; n=int(math.sqrt(m/8))//$NB*$NB; print(min(n, 100000//$NB*$NB))")
fi
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
    "16           NBMINs (>= 1)" "1            # of panels in recursion" "2            NDIVs" \
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
dat "$N" "$NB2" 1 1 > "$OUT/HPL-N-nb2.dat"
dat "$NM" "$NB" 1 1 > "$OUT/HPL-mid.dat"
dat "$NS" "$NB" 1 1 > "$OUT/HPL-small.dat"
dat 2000 "$NB" 1 1 > "$OUT/HPL-tiny.dat"

# Reference: cuBLAS DGEMM with k = NB on device-resident operands.
if want dgemm; then
run dgemm 120 "$GLUON" hpl "$OUT/HPL-tiny.dat" --backend cuda --dgemm "16384,16384,$NB" --progress 0 --json "$OUT/dgemm.json"
run dgemm-nb2 60 "$GLUON" hpl "$OUT/HPL-tiny.dat" --backend cuda --dgemm "16384,16384,$NB2" --progress 0 \
  --json "$OUT/dgemm-nb2.json"
fi

# Large N, in core: the device-resident LU.
if want incore; then
run gpu-incore 240 "$GLUON" hpl "$OUT/HPL-N.dat" --backend cuda --placement resident --json "$OUT/gpu-incore.json"
run gpu-incore-nb2 240 "$GLUON" hpl "$OUT/HPL-N-nb2.dat" --backend cuda --placement resident \
  --json "$OUT/gpu-incore-nb2.json"
fi

# Middle N: resident, and out of core with the cap at half of A's bytes (the windowed GPU LU).
if want mid; then
run mid-resident 120 "$GLUON" hpl "$OUT/HPL-mid.dat" --backend cuda --placement resident --json "$OUT/mid-resident.json"
HALF=$(( NM * NM * 8 / 2 ))
run mid-ooc 240 "$GLUON" hpl "$OUT/HPL-mid.dat" --backend cuda --gpu-memory-limit "$HALF" --placement out-of-core \
  --json "$OUT/mid-ooc.json"
fi

# Small N: GPU only, CPU only, hybrid (auto placement: resident), and the streamed hybrid with a
# split table (fresh, then reused) to show the adaptive split converge.
if want small; then
run small-gpu 120 "$GLUON" hpl "$OUT/HPL-small.dat" --backend cuda --json "$OUT/small-gpu.json"
run small-cpu 150 "$GLUON" hpl "$OUT/HPL-small.dat" --backend cpu --json "$OUT/small-cpu.json"
run small-hybrid 120 "$GLUON" hpl "$OUT/HPL-small.dat" --backend hybrid --json "$OUT/small-hybrid.json"
rm -f "$OUT/split-table.txt"
run small-streamed-hybrid-1 150 "$GLUON" hpl "$OUT/HPL-small.dat" --backend hybrid --placement streamed \
  --split-table "$OUT/split-table.txt"
cp "$OUT/split-table.txt" "$OUT/split-table-after-run1.txt" 2>/dev/null
run small-streamed-hybrid-2 150 "$GLUON" hpl "$OUT/HPL-small.dat" --backend hybrid --placement streamed \
  --split-table "$OUT/split-table.txt" --json "$OUT/small-streamed-hybrid.json"
fi

# Large N out of core (cap at half of A), when the host has three times A's bytes of memory.
HOST_KB=$(awk '/MemTotal/ {print $2}' /proc/meminfo)
if want bigooc && [ "${BIG_OOC:-1}" = 1 ] && [ $(( HOST_KB / 1024 / 1024 )) -ge $(( N * N * 24 / 1024 / 1024 / 1024 )) ]; then
  run big-ooc 300 "$GLUON" hpl "$OUT/HPL-N.dat" --backend cuda --gpu-memory-limit $(( N * N * 8 / 2 )) \
    --placement out-of-core --json "$OUT/big-ooc.json"
fi

# 1xQ grids of GPUs (NCCL panel broadcasts), the same N^2 per GPU as the single-GPU run.
NGPU=$(nvidia-smi -L 2>/dev/null | wc -l)
for Q in 2 4; do
  want grid && [ "$NGPU" -ge "$Q" ] && command -v mpirun >/dev/null || continue
  NQ=$(python3 -c "print(int($N*$Q**0.5)//$NB*$NB)")
  dat "$NQ" "$NB" 1 "$Q" > "$OUT/HPL-1x$Q.dat"
  run grid1x$Q 300 mpirun -np "$Q" --bind-to none -x NCCL_NVLS_ENABLE=0 -x OMP_NUM_THREADS=$((CORES / Q)) \
    -x OPENBLAS_NUM_THREADS=$((CORES / Q)) "$GLUON" hpl "$OUT/HPL-1x$Q.dat" --backend cuda --json "$OUT/grid1x$Q.json"
done
# The targets of issue 5, from the JSON summaries (missing runs are reported as missing).
python3 - "$OUT" <<'PY' | tee -a "$OUT/summary.txt"
import json, os, sys
out = sys.argv[1]
def rate(name):
    try:
        j = json.load(open(os.path.join(out, name + ".json")))
    except Exception:
        return None
    if name.startswith("dgemm"):
        return j.get("dgemm", {}).get("gflops")
    runs = j.get("runs", [])
    return runs[0]["gflops"] if runs and runs[0].get("passed") else None
names = ["dgemm", "dgemm-nb2", "gpu-incore", "gpu-incore-nb2", "mid-resident", "mid-ooc", "big-ooc", "small-gpu", "small-cpu", "small-hybrid",
         "small-streamed-hybrid", "grid1x2", "grid1x4"]
r = {k: rate(k) for k in names}
print("# rates (GFLOP/s):", {k: (round(v, 1) if v else None) for k, v in r.items()})
def ratio(label, a, b, target, scale=1):
    if r.get(a) and r.get(b):
        q = r[a] / (scale * r[b])
        print(f"# {label}: {q:.3f} (target >= {target}) {'met' if q >= target else 'NOT met'}")
    else:
        print(f"# {label}: not measured ({a} or {b} missing)")
ratio("in-core GPU-only HPL (resident, NB) / cuBLAS DGEMM (k = NB)", "gpu-incore", "dgemm", 0.75)
ratio("in-core GPU-only HPL (resident, NB2) / cuBLAS DGEMM (k = NB2)", "gpu-incore-nb2", "dgemm-nb2", 0.75)
ratio("out-of-core / in-core at N=mid (cap = A/2)", "mid-ooc", "mid-resident", 0.70)
ratio("out-of-core / in-core at N=big (cap = A/2)", "big-ooc", "gpu-incore", 0.70)
ratio("1x2 / (2 x one GPU)", "grid1x2", "gpu-incore", 0.85, 2)
ratio("1x4 / (4 x one GPU)", "grid1x4", "gpu-incore", 0.85, 4)
if r.get("small-hybrid") and r.get("small-gpu") and r.get("small-cpu"):
    best = max(r["small-gpu"], r["small-cpu"])
    print(f"# hybrid (auto placement) / best of GPU-only and CPU-only at N=small: {r['small-hybrid'] / best:.3f} (target >= 1)")
if r.get("small-streamed-hybrid") and r.get("small-cpu"):
    print(f"# streamed hybrid / CPU-only at N=small: {r['small-streamed-hybrid'] / r['small-cpu']:.3f}")
PY
echo "# split table of the streamed hybrid (log2(flops) samples gpu_fraction gpu_gflops cpu_gflops core fractions):" >> "$OUT/summary.txt"
cat "$OUT/split-table.txt" >> "$OUT/summary.txt" 2>/dev/null
cat "$OUT/summary.txt"
tar -czf "$OUT/../hpl-gpu.tgz" -C "$(dirname "$OUT")" "$(basename "$OUT")"
