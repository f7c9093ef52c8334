#!/usr/bin/env bash
# Call 4 (nvidia-h200, carry .deps): the slots of a solve reused too (runtime/scalar_slots.cpp).
# Build, the GPU tests, then A/B interleaved (GLUON_DEVICE_CACHE=0 against the caches), two
# rounds: the default job's propagator (make run: clover, 32^3x64, 12 columns, double-single)
# and, three rounds, bench solver at 16^4 (small solves, where a fixed cost weighs most).
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export PATH=/usr/local/cuda/bin:$PATH GLUON_TESTDATA=$PWD/.deps/testdata NCCL_NVLS_ENABLE=0
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "solver-gpu rc $? at $SECONDS s" >>$R/stdout.txt
export GLUON_TUNE_CACHE=$R/tunecache.json
B=build-cuda/bin/gluon
$B gauge --start weak --lattice 32,32,32,64 --seed 2026 --save $R/weak.nersc >$R/gauge.log 2>&1
prop() {
  GLUON_DEVICE_CACHE=$1 $B solve --gauge $R/weak.nersc --operator clover --kappa 0.12 --csw 1.0 --source 0,0,0,0 \
    --tol 1e-10 --sloppy-precision single --recon 12 --json >$R/prop-cache$1-$2.json 2>$R/prop-cache$1-$2.err
}
prop 1 0  # untimed: tunes every kernel
for round in 1 2; do for c in 0 1; do prop $c $round; done; done
small() {  # name, cache, round, args
  local n=$1 c=$2 r=$3; shift 3
  GLUON_DEVICE_CACHE=$c $B bench solver --backend cuda --precision double --recon 12 --tol 1e-10 \
    --lattice 16,16,16,16 "$@" --json >$R/$n-cache$c-$r.json 2>$R/$n-cache$c-$r.err
}
for round in 1 2 3; do for c in 0 1; do
  small cgnr-wilson-16 $c $round --operator wilson --kappa 0.12 --solver cgnr --sloppy-precision none
  small cg-staggered-16 $c $round --operator staggered --mass 0.05 --solver cg --sloppy-precision single
done; done
python3 - >$R/summary.txt <<'P'
import glob, json, re, collections
rows = collections.defaultdict(lambda: {0: [], 1: []})
for f in sorted(glob.glob("/tmp/res/*-cache*-*.json")):
    m = re.match(r".*/(.*)-cache(\d)-(\d)\.json", f)
    if m.group(3) == "0": continue
    d = json.load(open(f))
    rows[m.group(1)][int(m.group(2))].append(d["seconds"])
for k, v in rows.items():
    a, b = sorted(v[0]), sorted(v[1])
    print(f"{k:18s} no cache {' '.join(f'{x:.4f}' for x in v[0])}  cache {' '.join(f'{x:.4f}' for x in v[1])}  "
          f"median ratio {a[len(a)//2] / b[len(b)//2]:.3f}")
P
rm -f $R/gpu/build.log $R/gpu/configure.log $R/weak.nersc
tar czf "$OUT/res.tgz" -C /tmp res
cat $R/stdout.txt; tail -3 $R/gpu/ctest-gpu.log; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head
cat $R/summary.txt
echo "total $SECONDS s"
