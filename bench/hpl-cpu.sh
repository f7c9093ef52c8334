#!/usr/bin/env bash
# gluon hpl against Debian's hpcc (its HPL section) on this machine's CPU, side by side in one run:
# same N, NB and HPL.dat settings, alternating the two programs REPS times and keeping the best
# of each. Writes HPL.dat, the raw outputs and summary.txt to $OUT.
#
#   bash bench/hpl-cpu.sh                       # N=5000 NB=192 on a 1x1 grid (all cores via OpenBLAS)
#   N=6000 NB=256 REPS=3 GRID2=1 OUT=dir GLUON=build-hpl/bin/gluon bash bench/hpl-cpu.sh
#
# GRID2=1 also runs a 1x2 grid with 2 MPI ranks (one OpenBLAS thread each). Needs hpcc
# (apt-get install -y hpcc) and mpirun. The machine may be shared: the summary records the load.
set -euo pipefail
N=${N:-5000}
NB=${NB:-192}
REPS=${REPS:-2}
GRID2=${GRID2:-1}
GLUON=$(realpath "${GLUON:-build-hpl/bin/gluon}")
OUT=${OUT:-bench/results/$(date -u +%Y-%m-%d)-hpl-cpu}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
command -v hpcc >/dev/null || { echo "hpl-cpu.sh: hpcc not found (apt-get install -y hpcc)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
CORES=$(nproc)

dat() {  # dat P Q -> HPL.dat text (HPL 2.3's 31 lines)
  cat <<DAT
HPLinpack benchmark input file
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
6            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
$N           Ns
1            # of NBs
$NB          NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
$1           Ps
$2           Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
DAT
}

gflops_of() { awk '/^W[RC][0-9]/ {print $7}' "$1" | tail -1; }

run_pair() {  # run_pair P Q NP THREADS TAG
  local p=$1 q=$2 np=$3 th=$4 tag=$5 dir="$OUT/$5"
  mkdir -p "$dir"
  dat "$p" "$q" > "$dir/HPL.dat"
  { dat "$p" "$q"; printf '%s\n' "##### This line (no. 32) is ignored (it serves as a separator). ######" \
      "0     Number of additional problem sizes for PTRANS" "1200  values of N" \
      "0     number of additional blocking sizes for PTRANS" "40    values of NB"; } > "$dir/hpccinf.txt"
  local best_g=0 best_h=0
  for r in $(seq 1 "$REPS"); do
    (cd "$dir" && OMP_NUM_THREADS=$th OPENBLAS_NUM_THREADS=$th mpirun -np "$np" --oversubscribe "$GLUON" hpl HPL.dat \
        --progress 0 > "gluon-$r.txt" 2>&1)
    (cd "$dir" && rm -f hpccoutf.txt && OMP_NUM_THREADS=$th OPENBLAS_NUM_THREADS=$th mpirun -np "$np" --oversubscribe hpcc \
        > "hpcc-stdout-$r.txt" 2>&1 && mv hpccoutf.txt "hpcc-$r.txt")
    local g h
    g=$(gflops_of "$dir/gluon-$r.txt"); h=$(gflops_of "$dir/hpcc-$r.txt")
    echo "$tag rep $r: gluon $g GFLOP/s, hpcc $h GFLOP/s"
    best_g=$(python3 -c "print(max($best_g, float('$g')))"); best_h=$(python3 -c "print(max($best_h, float('$h')))")
  done
  python3 -c "g=$best_g; h=$best_h; print(f'$tag  N=$N NB=$NB ${p}x${q} ranks=$np threads/rank=$th  gluon {g:.2f} GFLOP/s  hpcc {h:.2f} GFLOP/s  ratio {g/h:.3f}')" \
    | tee -a "$OUT/summary.txt"
}

{
  echo "# bench/hpl-cpu.sh $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
  echo "# host $(hostname), $CORES cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) (the machine may be shared with other work)"
  echo "# hpcc: $(dpkg -s hpcc 2>/dev/null | awk '/^Version/ {print $2}') with $(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3)"
} > "$OUT/summary.txt"
run_pair 1 1 1 "$CORES" grid1x1
if [ "$GRID2" = 1 ] && [ "$CORES" -ge 2 ]; then run_pair 1 2 2 1 grid1x2; fi
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/summary.txt"
cat "$OUT/summary.txt"
