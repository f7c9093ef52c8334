#!/usr/bin/env bash
# The G4 ring benchmarks on two GPUs of one host (issue 6; docs/g4.md "Benchmarks"). From the
# repository root, after building the cuda preset:
#
#   OUT=<dir> GLUON=build-cuda/bin/gluon bash bench/g4-gpu.sh
#
# Runs (mpirun -np 2, one GPU per rank chosen by local rank; about 2 minutes in all):
#   1. copy       `gluon bench copy` on one GPU: the memory bandwidth the update is compared with
#   2. verify     the distributed G4 against a single-device accumulation (all four channels),
#                 double and single, whole ring and sub-rings of one: L1/L2 < 5e-7
#   3. bandwidth  a light update (N_q = 1) so that the loop is the transfer: the ring's effective
#                 bandwidth, the transfers timed alone, and the one-way NCCL peer rate of the
#                 same |G| measured in the same run (--peer-bandwidth)
#   4. hiding     N_q = 32: the update (about twice the transfer) overlaps it; double and single,
#                 one ring and two rings
#   5. memcap     a 24 GiB G4 under a 16 GiB per-device cap: refused on one GPU (ring of one),
#                 run on two (12 GiB each)
# Every run's JSON goes to $OUT/<name>.json, the console to $OUT/g4-gpu.log, and a table of the
# criteria to $OUT/summary.txt. Exits non-zero when a run fails or a verification fails.
# A dry run of the script's logic on CPU ranks (tiny sizes):
#   OUT=/tmp/g4dry GLUON=build/bin/gluon BACKEND=cpu BIG_CLUSTER=4x4 BIG_F=4 MEMCAP_TRANSFERS=64 \
#     MEMCAP_LIMIT=15M bash bench/g4-gpu.sh
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
GLUON=${GLUON:-build-cuda/bin/gluon}
OUT=${OUT:?set OUT to a directory for the results}
mkdir -p "$OUT"
LOG="$OUT/g4-gpu.log"
: >"$LOG"

# NVLink multicast stays off on the shared GPU hosts.
export NCCL_NVLS_ENABLE=0
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
MPIRUN=(mpirun --allow-run-as-root -np 2 --bind-to none -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS)

failures=0
say() { printf '\n=== g4-gpu: %s\n' "$*" | tee -a "$LOG"; }

# run NAME ARGS...: gluon g4 ARGS --json under mpirun -np 2, JSON to $OUT/NAME.json.
run() {
  local name=$1
  shift
  say "$name: ${MPIRUN[*]} $GLUON g4 $* --json"
  local start=$SECONDS
  if "${MPIRUN[@]}" "$GLUON" g4 "$@" --json >"$OUT/$name.json" 2>"$OUT/$name.err"; then
    cat "$OUT/$name.json" >>"$LOG"
    say "$name: ok after $((SECONDS - start)) s"
  else
    cat "$OUT/$name.json" "$OUT/$name.err" | tee -a "$LOG"
    say "$name: FAILED after $((SECONDS - start)) s"
    failures=$((failures + 1))
  fi
}

BACKEND=${BACKEND:-cuda}
say "device"
nvidia-smi --query-gpu=index,name,memory.total --format=csv 2>&1 | tee -a "$LOG" || true
nvidia-smi topo -m 2>&1 | tee -a "$LOG" || true

say "copy: $GLUON bench copy --backend $BACKEND --json"
"$GLUON" bench copy --backend "$BACKEND" --json >"$OUT/copy.json" 2>>"$LOG" || failures=$((failures + 1))
cat "$OUT/copy.json" >>"$LOG"

BIG_CLUSTER=${BIG_CLUSTER:-8x8}
BIG_F=${BIG_F:-16}
MEMCAP_TRANSFERS=${MEMCAP_TRANSFERS:-360}
MEMCAP_LIMIT=${MEMCAP_LIMIT:-16G}
COMMON=(--backend "$BACKEND" --bands 1)
# 2. correctness on the GPUs (the reference: one GPU accumulating every measurement)
run verify-double "${COMMON[@]}" --cluster 4x4 --frequencies 8 --transfers 20 --channels all \
  --measurements 4 --precision double --verify
run verify-single "${COMMON[@]}" --cluster 4x4 --frequencies 8 --transfers 20 --channels all \
  --measurements 4 --precision single --verify
run verify-subrings "${COMMON[@]}" --cluster 4x4 --frequencies 8 --transfers 20 --channels all \
  --measurements 4 --precision single --ring-size 1 --rings 2 --verify

# 3. bandwidth: |G| = 2 (64 * 32)^2 * 16 B = 134 MB, update light (N_q = 1)
BIG=("${COMMON[@]}" --cluster "$BIG_CLUSTER" --frequencies "$BIG_F" --channels pp)
run bandwidth-double "${BIG[@]}" --transfers 1 --measurements 30 --precision double --peer-bandwidth \
  --calibration-rounds 10 --peer-repeats 20
run bandwidth-double-2rings "${BIG[@]}" --transfers 1 --measurements 30 --rings 2 --precision double \
  --peer-bandwidth --calibration-rounds 10 --peer-repeats 20

# 4. hiding: N_q = 32, per rank 1.07 GB of G4 updated per step (double), update >= transfer
run hiding-double "${BIG[@]}" --transfers 32 --measurements 20 --precision double --peer-bandwidth \
  --calibration-rounds 5
run hiding-double-2rings "${BIG[@]}" --transfers 32 --measurements 20 --rings 2 --precision double \
  --calibration-rounds 5
run hiding-single "${BIG[@]}" --transfers 64 --measurements 20 --precision single --calibration-rounds 5

# 5. a 24 GiB G4 (N_q = 360, |G| = 231 MB) under a 16 GiB cap per device
say "memcap-one-gpu (expected to be refused)"
if "${MPIRUN[@]}" "$GLUON" g4 "${BIG[@]}" --transfers "$MEMCAP_TRANSFERS" --measurements 2 --ring-size 1 \
  --memory-limit "$MEMCAP_LIMIT" --json >"$OUT/memcap-one-gpu.json" 2>"$OUT/memcap-one-gpu.err"; then
  say "memcap-one-gpu: UNEXPECTEDLY accepted"
  failures=$((failures + 1))
else
  cat "$OUT/memcap-one-gpu.err" | tee -a "$LOG"
  say "memcap-one-gpu: refused as expected"
fi
run memcap-two-gpus "${BIG[@]}" --transfers "$MEMCAP_TRANSFERS" --measurements 2 --memory-limit "$MEMCAP_LIMIT" \
  --calibration-rounds 1

say "summary"
if command -v python3 >/dev/null; then
  python3 - "$OUT" <<'EOF' | tee "$OUT/summary.txt" | tee -a "$LOG"
import json, os, sys
out = sys.argv[1]
def load(n):
    try:
        with open(os.path.join(out, n + ".json")) as f:
            return json.load(f)
    except Exception:
        return None
copy = load("copy")
copy_gbs = copy.get("copy_gbs") if copy else None
print(f"copy bandwidth (read + write): {copy_gbs} GB/s")
bad = 0
for n in ["verify-double", "verify-single", "verify-subrings"]:
    j = load(n)
    if not j:
        print(f"{n}: no result"); bad += 1; continue
    ok = j["l1_error"] < 5e-7 and j["l2_error"] < 5e-7
    bad += not ok
    print(f"{n}: L1 {j['l1_error']:.3e} L2 {j['l2_error']:.3e} {'PASSED' if ok else 'FAILED'} ({j['transport']})")
for n in ["bandwidth-double", "bandwidth-double-2rings", "hiding-double", "hiding-double-2rings", "hiding-single", "memcap-two-gpus"]:
    j = load(n)
    if not j:
        print(f"{n}: no result"); continue
    peer = j.get("peer_bandwidth_gbs")
    line = (f"{n}: |G| {j['g_bytes']/1e6:.1f} MB, G4 {j['g4_bytes_total']/2**30:.2f} GiB total, "
            f"{j['g4_bytes_per_rank']/2**30:.2f} GiB per rank; ring {j['ring_bandwidth_gbs']:.1f} GB/s effective, "
            f"transfers alone {j['transfer_bandwidth_gbs']:.1f} GB/s")
    if peer:
        line += f", peer {peer:.1f} GB/s (transfers/peer {j['transfer_bandwidth_gbs']/peer:.2f}, ring/peer {j['ring_bandwidth_gbs']/peer:.2f})"
    line += (f"; transfer round {j['transfer_round_s']*1e3:.3f} ms, update round {j['update_round_s']*1e3:.3f} ms, "
             f"hidden {100*j['hidden_fraction']:.1f}%; update {j['update_gbs']:.0f} GB/s in the loop, "
             f"{j['update_alone_gbs']:.0f} GB/s alone at {j['update_bytes_per_entry']:.0f} B/entry")
    if copy_gbs:
        line += f" (alone: {j['update_alone_gbs']/copy_gbs:.2f} of copy)"
    print(line)
sys.exit(1 if bad else 0)
EOF
  [[ $? -eq 0 ]] || failures=$((failures + 1))
fi
say "done: $failures failure(s)"
exit $((failures > 0))
