#!/usr/bin/env bash
# Scaling on 4 and 8 GPUs of one host (issue 7; docs/parallel.md "Scaling on 4 and 8 GPUs"). From
# the repository root, after building the cuda preset:
#
#   OUT=<dir> GLUON=build-cuda/bin/gluon bash bench/scale-gpu.sh
#
# One MPI rank per GPU (the node-local rank picks it), K = 1, 2, 4, 8 with K <= NGPU (nvidia-smi -L,
# or NGPU=...). The 1-GPU runs start without mpirun. Runs, each as JSON in $OUT (names below):
#   strong  clover dslash recon 12, single and double, on 32^3x64 and 48^3x96 (48^3x96 double is
#           skipped by default: SKIP_DOUBLE), --grid explicit: the lattice cut in t (1,1,1,K), in z,t
#           (K=4: 1,1,2,2; K=8: 1,1,2,4) and in y,z,t (K=8: 1,2,2,2), each with --halo overlap and
#           --halo no-overlap, --model (the slides' model) on every run
#             strong-<lattice>-<precision>-k<K>-g<grid>-<policy>.json   (K=1: policy "none")
#   weak    clover dslash single at 32^4 per GPU, the global lattice grown along the cut dimensions
#           (same grids as above), --halo auto
#             weak-<local lattice>-single-k<K>-g<grid>-auto.json
#   solve   the mixed double-single clover solve of bench/dd-gpu.sh (12 columns, tol 1e-10) on
#           32^3x64, cut in t, --halo auto
#             solve-<lattice>-k<K>-g<grid>.json
#   g4      gluon g4 as bench/g4-gpu.sh's hiding run (cluster 8x8, 2F = 32, N_q = 32, pp, double,
#           20 measurements per rank): a ring of all K ranks for every K, and sub-rings of 2
#           (K >= 4) and of 4 (K = 8) within K
#             g4-k<K>-s<ring size>.json
#   hpl     gluon hpl --backend cuda, P x Q = 1x1 at N = NH, then 2x2 and 2x4 with
#           N = NH sqrt(K) (rounded down to a multiple of NB): the same N^2 per GPU. Placement auto:
#           1x1 (and any 1xQ in HPL_GRIDS) runs the device-resident LU, P = 2 the streamed update
#             hpl-k<K>-<P>x<Q>.json (HPL's text in .txt, its .dat beside)
# Every run goes under `timeout`; a run's stderr is in <name>.err, its wall time and status in
# runs.tsv, the console in scale-gpu.log. At the end scripts/plot-scaling.py writes summary.txt
# (speed-up and efficiency of every curve, the --model numbers) and one SVG per curve.
# Exits non-zero when a run fails.
#
# Knobs (environment; defaults in brackets):
#   NGPU [nvidia-smi -L]   KS [1 2 4 8, those <= NGPU]   BACKEND [cuda]   ITER [100]  WARMUP [20]
#   PHASES ["strong weak solve g4 hpl"]  STRONG_LATTICES ["32,32,32,64 48,48,48,96"]
#   PRECISIONS ["single double"]  SKIP_DOUBLE [48,48,48,96]  POLICIES ["overlap no-overlap"]
#   WEAK_LOCAL [32,32,32,32]  SOLVE_LATTICE [32,32,32,64]  SOLVE_TOL [1e-10]
#   G4_CLUSTER [8x8] G4_F [16] G4_TRANSFERS [32] G4_MEAS [20]   NH [40000] NB [512, as bench/hpl-gpu.sh] HPL_GRIDS ["1x1 2x2 2x4"]
#   T_DSLASH [120] T_SOLVE [240] T_G4 [120] T_HPL [480]: per-run timeouts in seconds
#   BUDGET_S [540]: no run starts later than this after the start, and none is given a timeout
#     past it, so that the summary is written inside the device tool's 10-minute limit (0: no budget);
#     runs left out are listed as "skipped (budget)"
#   MPIRUN_EXTRA: more mpirun flags   COPY_MIB: buffer of the copy that bench dslash measures alongside
#     (gluon's default: 1 GiB on a GPU; the dry run sets 4)
# The default set is 7 + 7 + 7 + 4 dslash runs, 3 solves, 4 G4 rings and 2 HPL runs on a 4-GPU host;
# on 8 GPUs it is larger than 10 minutes: split it with PHASES (e.g. PHASES="strong" then
# PHASES="weak solve g4 hpl" into the same OUT).
#
# A dry run of the script's logic on CPU ranks (every branch, tiny sizes, 4 ranks oversubscribed):
#   OUT=/tmp/scaledry GLUON=build/bin/gluon BACKEND=cpu NGPU=4 ITER=3 WARMUP=1 COPY_MIB=4 BUDGET_S=0 \
#     STRONG_LATTICES="8,8,8,16 8,8,12,24" WEAK_LOCAL=4,4,4,4 SOLVE_LATTICE=8,8,8,16 SOLVE_TOL=1e-6 \
#     G4_CLUSTER=4x4 G4_F=4 G4_TRANSFERS=4 G4_MEAS=2 NH=1200 NB=64 bash bench/scale-gpu.sh
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
GLUON=${GLUON:-build-cuda/bin/gluon}
OUT=${OUT:?set OUT to a directory for the results}
BACKEND=${BACKEND:-cuda}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/scale-gpu.log"
: >"$LOG"
[[ -f "$OUT/runs.tsv" ]] || printf 'name\tgpus\tseconds\tstatus\n' >"$OUT/runs.tsv"

if [[ -z ${NGPU:-} ]]; then
  NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
if ! [[ ${NGPU:-0} =~ ^[0-9]+$ ]] || [[ ${NGPU:-0} -lt 1 ]]; then
  echo "scale-gpu: no GPU found by nvidia-smi -L; set NGPU (with BACKEND=cpu for a dry run on CPU ranks)" >&2
  exit 2
fi
if [[ -z ${KS:-} ]]; then
  KS=""
  for k in 1 2 4 8; do [[ $k -le $NGPU ]] && KS="$KS $k"; done
fi
for k in $KS; do
  case $k in 1 | 2 | 4 | 8) ;; *) echo "scale-gpu: KS holds $k; only 1, 2, 4 and 8 have grids here" >&2; exit 2 ;; esac
  [[ $k -le $NGPU ]] || { echo "scale-gpu: K=$k > NGPU=$NGPU" >&2; exit 2; }
done

ITER=${ITER:-100}
WARMUP=${WARMUP:-20}
PHASES=${PHASES:-"strong weak solve g4 hpl"}
STRONG_LATTICES=${STRONG_LATTICES:-"32,32,32,64 48,48,48,96"}
PRECISIONS=${PRECISIONS:-"single double"}
SKIP_DOUBLE=${SKIP_DOUBLE-"48,48,48,96"}
POLICIES=${POLICIES:-"overlap no-overlap"}
WEAK_LOCAL=${WEAK_LOCAL:-32,32,32,32}
SOLVE_LATTICE=${SOLVE_LATTICE:-32,32,32,64}
SOLVE_TOL=${SOLVE_TOL:-1e-10}
G4_CLUSTER=${G4_CLUSTER:-8x8}
G4_F=${G4_F:-16}
G4_TRANSFERS=${G4_TRANSFERS:-32}
G4_MEAS=${G4_MEAS:-20}
NH=${NH:-40000}
NB=${NB:-512}
HPL_GRIDS=${HPL_GRIDS:-"1x1 2x2 2x4"}
T_DSLASH=${T_DSLASH:-120}
T_SOLVE=${T_SOLVE:-240}
T_G4=${T_G4:-120}
T_HPL=${T_HPL:-480}
BUDGET_S=${BUDGET_S:-540}
CORES=$(nproc)

export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on the shared GPU hosts
if [[ $BACKEND == cpu ]]; then
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
else
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
fi
export GLUON_TUNE_CACHE=${GLUON_TUNE_CACHE:-$OUT/tunecache.json}
# mpirun for K ranks: one per GPU; on CPU ranks (dry run) oversubscribed.
MPIRUN=(mpirun --allow-run-as-root --bind-to none -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS -x GLUON_TUNE_CACHE)
[[ $BACKEND == cpu ]] && MPIRUN+=(--oversubscribe)
# shellcheck disable=SC2206
[[ -n ${MPIRUN_EXTRA:-} ]] && MPIRUN+=($MPIRUN_EXTRA)

failures=0
START=$SECONDS
say() { printf '\n=== scale-gpu [%4ds]: %s\n' "$((SECONDS - START))" "$*" | tee -a "$LOG"; }

# launcher K: sets L to the prefix that starts K ranks (nothing for one).
launcher() {
  if [[ $1 -eq 1 ]]; then L=(); else L=("${MPIRUN[@]}" -np "$1"); fi
}

# run NAME K TIMEOUT STDOUT CMD...: CMD under timeout; $OUT/NAME.json must then hold one JSON
# object (STDOUT is where CMD's stdout goes: the JSON itself, or HPL's text). A failed run's JSON
# is renamed NAME.json.failed so that the summary and the plots skip it.
run() {
  local name=$1 k=$2 t=$3 stdout=$4
  shift 4
  if [[ $BUDGET_S -gt 0 ]]; then
    local left=$((BUDGET_S - (SECONDS - START)))
    if [[ $left -lt 20 ]]; then
      say "$name: skipped (budget: ${BUDGET_S} s spent)"
      printf '%s\t%s\t0\tskipped (budget)\n' "$name" "$k" >>"$OUT/runs.tsv"
      return
    fi
    [[ $t -gt $left ]] && t=$left
  fi
  say "$name: $*"
  local start=$SECONDS rc
  rm -f "$OUT/$name.json" "$OUT/$name.json.failed"
  timeout -k 15 "$t" "$@" >"$stdout" 2>"$OUT/$name.err"
  rc=$?
  local status=ok
  if [[ $rc -ne 0 ]]; then
    status="failed (exit $rc$([[ $rc -eq 124 || $rc -eq 137 ]] && echo ", timeout ${t} s"))"
  elif ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT/$name.json" 2>>"$OUT/$name.err"; then
    status="failed (no JSON)"
  fi
  if [[ $status == ok ]]; then
    say "$name: ok after $((SECONDS - start)) s"
  else
    tail -n 15 "$OUT/$name.err" | tee -a "$LOG"
    [[ -f "$OUT/$name.json" ]] && mv "$OUT/$name.json" "$OUT/$name.json.failed"
    say "$name: $status after $((SECONDS - start)) s"
    failures=$((failures + 1))
  fi
  printf '%s\t%s\t%s\t%s\n' "$name" "$k" "$((SECONDS - start))" "$status" >>"$OUT/runs.tsv"
}

# grids K: the process grids of K ranks cut in 1, 2 and 3 dimensions (t; z,t; y,z,t).
grids() {
  case $1 in
    1) echo "1,1,1,1" ;;
    2) echo "1,1,1,2" ;;
    4) echo "1,1,1,4 1,1,2,2" ;;
    8) echo "1,1,1,8 1,1,2,4 1,2,2,2" ;;
  esac
}
xtext() { echo "${1//,/x}"; }  # 32,32,32,64 -> 32x32x32x64
# mul4 A B: the product of two X,Y,Z,T lists, element by element
mul4() {
  local -a a b
  IFS=, read -r -a a <<<"$1"
  IFS=, read -r -a b <<<"$2"
  echo "$((a[0] * b[0])),$((a[1] * b[1])),$((a[2] * b[2])),$((a[3] * b[3]))"
}
phase() { [[ " $PHASES " == *" $1 "* ]]; }

{
  say "host: NGPU=$NGPU KS=$KS BACKEND=$BACKEND PHASES=$PHASES ITER=$ITER cores=$CORES"
  nvidia-smi --query-gpu=index,name,memory.total --format=csv 2>&1 || true
  nvidia-smi topo -m 2>&1 || true
  "$GLUON" info 2>&1 || true
} >"$OUT/device.txt"
cat "$OUT/device.txt" >>"$LOG"

# 1. strong scaling of the clover dslash
D=(bench dslash --backend "$BACKEND" --operator clover --recon 12 --iterations "$ITER" --warmup "$WARMUP" --json
   --model)
[[ -n ${COPY_MIB:-} ]] && D+=(--copy-size-mib "$COPY_MIB" --copy-iterations 3)
if phase strong; then
  for lat in $STRONG_LATTICES; do
    for prec in $PRECISIONS; do
      if [[ $prec == double && " $SKIP_DOUBLE " == *" $lat "* ]]; then
        say "strong $lat double: skipped (SKIP_DOUBLE)"
        continue
      fi
      for k in $KS; do
        launcher "$k"
        for g in $(grids "$k"); do
          if [[ $k -eq 1 ]]; then
            n="strong-$(xtext "$lat")-$prec-k1-g1x1x1x1-none"
            run "$n" 1 "$T_DSLASH" "$OUT/$n.json" "$GLUON" "${D[@]}" --precision "$prec" --lattice "$lat" --grid "$g"
            continue
          fi
          for pol in $POLICIES; do
            n="strong-$(xtext "$lat")-$prec-k$k-g$(xtext "$g")-$pol"
            run "$n" "$k" "$T_DSLASH" "$OUT/$n.json" "${L[@]}" "$GLUON" "${D[@]}" --precision "$prec" \
              --lattice "$lat" --grid "$g" --halo "$pol"
          done
        done
      done
    done
  done
fi

# 2. weak scaling of the clover dslash: WEAK_LOCAL per GPU
if phase weak; then
  for k in $KS; do
    launcher "$k"
    for g in $(grids "$k"); do
      lat=$(mul4 "$WEAK_LOCAL" "$g")
      n="weak-$(xtext "$WEAK_LOCAL")-single-k$k-g$(xtext "$g")-auto"
      run "$n" "$k" "$T_DSLASH" "$OUT/$n.json" "${L[@]}" "$GLUON" "${D[@]}" --precision single --lattice "$lat" \
        --grid "$g" --halo auto
    done
  done
fi

# 3. strong scaling of the mixed-precision clover solve (bench/dd-gpu.sh's), cut in t
S=(solve --backend "$BACKEND" --start weak --lattice "$SOLVE_LATTICE" --seed 2026 --operator clover --kappa 0.12
   --csw 1.0 --tol "$SOLVE_TOL" --sloppy-precision single --recon 12 --quiet --json)
if phase solve; then
  for k in $KS; do
    launcher "$k"
    g="1,1,1,$k"
    n="solve-$(xtext "$SOLVE_LATTICE")-k$k-g$(xtext "$g")"
    run "$n" "$k" "$T_SOLVE" "$OUT/$n.json" "${L[@]}" "$GLUON" "${S[@]}" --grid "$g" --halo auto
  done
fi

# 4. the G4 ring: rings of all K ranks, sub-rings of 2 and 4 within K
G=(g4 --backend "$BACKEND" --bands 1 --cluster "$G4_CLUSTER" --frequencies "$G4_F" --channels pp
   --transfers "$G4_TRANSFERS" --measurements "$G4_MEAS" --precision double --calibration-rounds 5 --json)
if phase g4; then
  for k in $KS; do
    launcher "$k"
    sizes=$k
    for s in 2 4; do [[ $s -lt $k && $((k % s)) -eq 0 ]] && sizes="$sizes $s"; done
    for s in $sizes; do
      n="g4-k$k-s$s"
      extra=()
      [[ $s -gt 1 ]] && extra=(--peer-bandwidth --peer-repeats 10)
      run "$n" "$k" "$T_G4" "$OUT/$n.json" "${L[@]}" "$GLUON" "${G[@]}" --ring-size "$s" "${extra[@]}"
    done
  done
fi

# 5. Linpack: the same N^2 per GPU (N = NH sqrt(K)); the CPU threads shared among the ranks
dat() {  # dat N NB P Q (bench/hpl-gpu.sh's)
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
if phase hpl; then
  for pq in $HPL_GRIDS; do
    p=${pq%x*} q=${pq#*x}
    k=$((p * q))
    [[ $k -le $NGPU && " $KS " == *" $k "* ]] || continue
    if [[ $k -eq 1 ]]; then n_hpl=$NH; else n_hpl=$(python3 -c "print(int($NH * $k ** 0.5) // $NB * $NB)"); fi
    n="hpl-k$k-${p}x$q"
    dat "$n_hpl" "$NB" "$p" "$q" >"$OUT/$n.dat"
    th=$((CORES / k))
    [[ $th -ge 1 ]] || th=1
    [[ $BACKEND == cpu && $k -gt 1 ]] && th=1
    if [[ $k -eq 1 ]]; then
      L=(env OMP_NUM_THREADS="$th" OPENBLAS_NUM_THREADS="$th")
    else
      L=(env OMP_NUM_THREADS="$th" OPENBLAS_NUM_THREADS="$th" OMPI_MCA_btl_vader_single_copy_mechanism=none
         "${MPIRUN[@]}" -x OPENBLAS_NUM_THREADS -x OMPI_MCA_btl_vader_single_copy_mechanism -np "$k")
    fi
    run "$n" "$k" "$T_HPL" "$OUT/$n.txt" "${L[@]}" "$GLUON" hpl "$OUT/$n.dat" --backend "$BACKEND" --progress 0 \
      --json "$OUT/$n.json"
    grep -E '^W[RC][0-9]|PASSED|FAILED' "$OUT/$n.txt" 2>/dev/null | tee -a "$LOG"
  done
fi

say "summary and plots: python3 scripts/plot-scaling.py $OUT"
python3 scripts/plot-scaling.py "$OUT" 2>&1 | tee -a "$LOG"
[[ ${PIPESTATUS[0]} -eq 0 ]] || failures=$((failures + 1))
tar -czf "$OUT/../scale-gpu.tgz" -C "$(dirname "$OUT")" "$(basename "$OUT")" 2>/dev/null
say "done in $((SECONDS - START)) s: $failures failure(s)"
exit $((failures > 0))
