#!/usr/bin/env bash
# Call 6 (nvidia-h200, carry .deps): the final commit (tune key = the code compiled): build, the
# GPU tests, then the tune cache across a rebuild after an edit to a doc (no retune expected) and
# after an edit to a kernel file (retune expected).
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export PATH=/usr/local/cuda/bin:$PATH GLUON_TESTDATA=$PWD/.deps/testdata NCCL_NVLS_ENABLE=0
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "solver-gpu rc $? at $SECONDS s" >>$R/stdout.txt
export GLUON_TUNE_CACHE=$R/tunecache.json
B=build-cuda/bin/gluon
row() { $B bench dslash --operator wilson --precision single --recon 12 --lattice 32,32,32,32 --json >$R/$1.json 2>$R/$1.err
        $B info --json >$R/$1-info.json 2>&1; }
row run1; row run2
echo "an edit to the docs" >>docs/bench.md
cmake --build build-cuda -j 16 >$R/rebuild-doc.log 2>&1; echo "doc rebuild rc $?" >>$R/stdout.txt
sed -i '$ d' docs/bench.md
row run3
f=src/qcd/dirac/wilson_dslash_single_r12_kernels.cpp
echo "// an edit to a kernel file" >>$f
cmake --build build-cuda -j 16 >$R/rebuild-kernel.log 2>&1; echo "kernel rebuild rc $?" >>$R/stdout.txt
sed -i '$ d' $f
row run4
python3 - >$R/summary.txt <<'P'
import json
for r in ("run1", "run2", "run3", "run4"):
    d = json.load(open(f"/tmp/res/{r}.json")); i = json.load(open(f"/tmp/res/{r}-info.json"))
    t = d["tune_cache"]
    print(f"{r}: git {i['git']!r} code {i['code']!r} tuned_now {t['tuned_now']} hits {t['hits']} "
          f"gflops {d['gflops']:.0f} of copy {d['fraction_of_copy']:.3f}")
P
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
cat $R/stdout.txt; tail -3 $R/gpu/ctest-gpu.log; grep -E "Failed|\*\*\*" $R/gpu/ctest-gpu.log | head; cat $R/summary.txt
echo "total $SECONDS s"
