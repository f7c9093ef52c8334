#!/usr/bin/env bash
# Call 3 (nvidia-h200, carry .deps): released device blocks kept for reuse (runtime/memory.cpp,
# DeviceCache). Build, the GPU tests, then solves A/B interleaved: GLUON_DEVICE_CACHE=0 (cudaMalloc
# and cudaFree for every work vector, as before) against the cache, three rounds, 32^4, and the
# Wilson double CGNR profile with the cache (its idle gaps against trip2's).
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export PATH=/usr/local/cuda/bin:$PATH GLUON_TESTDATA=$PWD/.deps/testdata NCCL_NVLS_ENABLE=0
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "solver-gpu rc $? at $SECONDS s" >>$R/stdout.txt
export GLUON_TUNE_CACHE=$R/tunecache.json
B=build-cuda/bin/gluon
solve() {  # name, cache (0/1), args
  local n=$1 c=$2; shift 2
  GLUON_DEVICE_CACHE=$c $B bench solver --backend cuda --precision double --recon 12 --tol 1e-10 \
    --lattice 32,32,32,32 "$@" --json >$R/$n-cache$c-$round.json 2>$R/$n-cache$c-$round.err
}
for round in 1 2 3; do
  for c in 0 1; do
    solve cgnr-wilson $c --operator wilson --kappa 0.12 --solver cgnr --sloppy-precision none
    solve bicgstab-clover-single $c --operator clover --kappa 0.12 --csw 1.0 --solver bicgstab --sloppy-precision single
    solve cg-staggered $c --operator staggered --mass 0.05 --solver cg --sloppy-precision none
  done
done
GLUON_PROFILE=1 $B bench solver --backend cuda --precision double --sloppy-precision none --recon 12 --tol 1e-10 \
  --lattice 32,32,32,32 --operator wilson --kappa 0.12 --solver cgnr >$R/profile-cgnr-wilson.txt 2>&1
python3 - >$R/summary.txt <<'P'
import glob, json, re, collections
rows = collections.defaultdict(lambda: {0: [], 1: []})
for f in sorted(glob.glob("/tmp/res/*-cache*-*.json")):
    m = re.match(r".*/(.*)-cache(\d)-(\d)\.json", f)
    d = json.load(open(f))
    rows[m.group(1)][int(m.group(2))].append((d["seconds"], d["fraction_of_operator"], d["iterations"]))
print(f"{'solve':26s} {'no cache: s (of operator)':34s} {'cache: s (of operator)':34s} median ratio")
for k, v in rows.items():
    a = sorted(x[0] for x in v[0]); b = sorted(x[0] for x in v[1])
    fmt = lambda l: " ".join(f"{s:.4f}({f:.3f})" for s, f, _ in l)
    print(f"{k:26s} {fmt(v[0]):34s} {fmt(v[1]):34s} {a[len(a)//2] / b[len(b)//2]:.3f}  iters {v[0][0][2]}/{v[1][0][2]}")
P
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
cat $R/stdout.txt; tail -3 $R/gpu/ctest-gpu.log; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
cat $R/summary.txt; head -12 $R/profile-cgnr-wilson.txt
echo "total $SECONDS s"
