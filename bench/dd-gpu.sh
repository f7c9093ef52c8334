#!/usr/bin/env bash
# Domain decomposition on two GPUs of one host (issue 4; docs/parallel.md). From the repository
# root, after building the cuda preset:
#
#   OUT=<dir> GLUON=build-cuda/bin/gluon bash bench/dd-gpu.sh
#
# One rank per GPU (node-local rank picks it), halos over NCCL. Runs, each as JSON in $OUT:
#   strong  clover dslash (single and double, recon 12) on 32^3x64: 1 GPU, then 2 GPUs cut in t
#           with the overlap and the no-overlap policy, then 2 GPUs cut in z (overlap); faces
#           over CUDA IPC (the default on one node), and the t-cut overlap again over NCCL;
#           --model prints the slides' model beside each 2-GPU measurement
#   weak    clover dslash single at 32^4 per GPU: 1 GPU 32^4; 2 GPUs 32^3x64 cut in t and
#           32x32x64x32 cut in z
#   solve   the mixed double-single clover solve (12 columns, tol 1e-10) on 32^3x64 weak field:
#           1 GPU; 2 GPUs t-cut overlap and no-overlap; 2 GPUs z-cut
# $OUT/summary.txt holds the speed-ups and efficiencies. Exits non-zero when a run fails.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
GLUON=${GLUON:-build-cuda/bin/gluon}
OUT=${OUT:?set OUT to a directory for the results}
ITER=${ITER:-200}
mkdir -p "$OUT"
LOG="$OUT/dd-gpu.log"
: >"$LOG"

export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on the shared GPU hosts
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
MPI2=(mpirun --allow-run-as-root -np 2 --bind-to none -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS -x GLUON_TUNE_CACHE)
MPI2_NCCL=("${MPI2[@]}" -x GLUON_HALO_TRANSPORT=nccl)
failures=0
say() { printf '\n=== dd-gpu: %s\n' "$*" | tee -a "$LOG"; }

# run NAME CMD...: CMD's stdout (JSON) to $OUT/NAME.json, stderr to $OUT/NAME.err.
run() {
  local name=$1
  shift
  say "$name: $*"
  local start=$SECONDS
  if "$@" >"$OUT/$name.json" 2>"$OUT/$name.err"; then
    say "$name: ok after $((SECONDS - start)) s"
  else
    cat "$OUT/$name.json" "$OUT/$name.err" | tail -20 | tee -a "$LOG"
    say "$name: FAILED after $((SECONDS - start)) s"
    failures=$((failures + 1))
  fi
}

D=(bench dslash --backend cuda --operator clover --recon 12 --iterations "$ITER" --warmup 20 --json)
for prec in single double; do
  run "strong-$prec-1gpu" "$GLUON" "${D[@]}" --precision $prec --lattice 32,32,32,64
  for pol in overlap no-overlap; do
    run "strong-$prec-2gpu-t-$pol" "${MPI2[@]}" "$GLUON" "${D[@]}" --precision $prec --lattice 32,32,32,64 \
      --grid 1,1,1,2 --halo $pol --model
  done
  run "strong-$prec-2gpu-z-overlap" "${MPI2[@]}" "$GLUON" "${D[@]}" --precision $prec --lattice 32,32,32,64 \
    --grid 1,1,2,1 --halo overlap --model
  run "strong-$prec-2gpu-t-overlap-nccl" "${MPI2_NCCL[@]}" "$GLUON" "${D[@]}" --precision $prec \
    --lattice 32,32,32,64 --grid 1,1,1,2 --halo overlap --model
done
run "weak-single-1gpu" "$GLUON" "${D[@]}" --precision single --lattice 32,32,32,32
run "weak-single-2gpu-t" "${MPI2[@]}" "$GLUON" "${D[@]}" --precision single --lattice 32,32,32,64 --grid 1,1,1,2 --halo auto --model
run "weak-single-2gpu-z" "${MPI2[@]}" "$GLUON" "${D[@]}" --precision single --lattice 32,32,64,32 --grid 1,1,2,1 --halo auto --model

S=(solve --backend cuda --start weak --lattice 32,32,32,64 --seed 2026 --operator clover --kappa 0.12 --csw 1.0
   --tol 1e-10 --sloppy-precision single --recon 12 --quiet --json)
run "solve-1gpu" "$GLUON" "${S[@]}"
run "solve-2gpu-t-overlap" "${MPI2[@]}" "$GLUON" "${S[@]}" --grid 1,1,1,2 --halo overlap
run "solve-2gpu-t-no-overlap" "${MPI2[@]}" "$GLUON" "${S[@]}" --grid 1,1,1,2 --halo no-overlap
run "solve-2gpu-z-overlap" "${MPI2[@]}" "$GLUON" "${S[@]}" --grid 1,1,2,1 --halo overlap
run "solve-2gpu-t-overlap-nccl" "${MPI2_NCCL[@]}" "$GLUON" "${S[@]}" --grid 1,1,1,2 --halo overlap
S4=(solve --backend cuda --start weak --lattice 32,32,32,32 --seed 2026 --operator clover --kappa 0.12 --csw 1.0
    --tol 1e-10 --sloppy-precision single --recon 12 --quiet --json)
run "solve-weak-1gpu" "$GLUON" "${S4[@]}"

python3 - "$OUT" <<'EOF' | tee "$OUT/summary.txt" | tee -a "$LOG"
import json, os, sys
out = sys.argv[1]
def load(n):
    try:
        with open(os.path.join(out, n + ".json")) as f:
            return json.load(f)
    except Exception:
        return None
print("clover dslash, recon 12, GFLOP/s (aggregate) and time per one-parity dslash")
for prec in ("single", "double"):
    one = load(f"strong-{prec}-1gpu")
    if not one: continue
    print(f"  {prec}: 1 GPU 32^3x64 {one['gflops']:.0f} GFLOP/s, {one['dslash_ms']:.4f} ms")
    for n in (f"strong-{prec}-2gpu-t-overlap", f"strong-{prec}-2gpu-t-no-overlap", f"strong-{prec}-2gpu-z-overlap",
              f"strong-{prec}-2gpu-t-overlap-nccl"):
        r = load(n)
        if not r: continue
        print(f"  {n}: {r['gflops']:.0f} GFLOP/s, {r['dslash_ms']:.4f} ms, speed-up {one['dslash_ms']/r['dslash_ms']:.2f}x, "
              f"exchange {r['exchange_ms']:.4f} ms, hidden {100*r['hidden_fraction']:.0f}%, policy {r['halo_policy']}, "
              f"faces over {r.get('halo_transport', '?')}, "
              f"model needs {r['model']['needed_gbs']:.1f} GB/s, exchange ran at {r['model']['measured_exchange_gbs']:.1f} GB/s")
w1 = load("weak-single-1gpu")
for n in ("weak-single-2gpu-t", "weak-single-2gpu-z"):
    r = load(n)
    if w1 and r:
        print(f"  weak {n}: per-GPU {r['per_rank_gflops']:.0f} vs {w1['gflops']:.0f} GFLOP/s on one: "
              f"efficiency {100*w1['dslash_ms']/r['dslash_ms']:.1f}% (policy {r['halo_policy']})")
s1 = load("solve-1gpu")
print("mixed double-single clover solve, 32^3x64, 12 columns")
if s1:
    print(f"  1 GPU: {s1['solver_seconds']:.2f} s, {s1['iterations']} iterations, {s1['gflops']:.0f} GFLOP/s")
    for n in ("solve-2gpu-t-overlap", "solve-2gpu-t-no-overlap", "solve-2gpu-z-overlap", "solve-2gpu-t-overlap-nccl"):
        r = load(n)
        if r:
            print(f"  {n}: {r['solver_seconds']:.2f} s, {r['iterations']} iterations, {r['gflops']:.0f} GFLOP/s, "
                  f"speed-up {s1['solver_seconds']/r['solver_seconds']:.2f}x, max |pion diff| rel "
                  f"{max(abs(a-b)/abs(b) for a, b in zip(r['correlators']['pion'], s1['correlators']['pion'])):.1e}")
sw = load("solve-weak-1gpu")
r = load("solve-2gpu-t-overlap")
if sw and r:
    a = sw['solver_seconds'] / sw['iterations']
    b = r['solver_seconds'] / r['iterations']
    print(f"  weak (time per iteration): 32^4 on 1 GPU {1e3*a:.3f} ms, 32^3x64 on 2 GPUs {1e3*b:.3f} ms: efficiency {100*a/b:.1f}%")
EOF
say "done: $failures failed"
exit $((failures > 0))
