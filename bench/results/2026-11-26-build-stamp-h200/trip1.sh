#!/usr/bin/env bash
# Call 1 (nvidia-h200, carry .deps): build the cuda preset at this commit, the GPU tests, then the
# tune cache across runs and rebuilds now that the build key is stamped at build time:
#   run 1 tunes (empty cache), run 2 of the same binary starts tuned (tuned_now 0), then a
#   comment is appended to one kernel file and only the build (no configure) is rerun: the stamp
#   must change and run 3 must tune again, where the configure-time stamp kept the old key.
set -u
R=/tmp/res; rm -rf $R; mkdir -p $R/gpu
export PATH=/usr/local/cuda/bin:$PATH GLUON_TESTDATA=$PWD/.deps/testdata NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"; } >$R/machine.txt 2>&1
PARTS="build tests" OUT=$R/gpu bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "solver-gpu rc $? at $SECONDS s" >>$R/stdout.txt
export GLUON_TUNE_CACHE=$R/tunecache.json
B=build-cuda/bin/gluon
row() { $B bench dslash --operator wilson --precision single --recon 12 --lattice 32,32,32,32 --json >$R/$1.json 2>$R/$1.err; }
$B info >$R/info-1.txt 2>&1
row run1; row run2
f=src/qcd/dirac/wilson_dslash_single_r12_kernels.cpp
echo "// build-stamp check: an edit after configure" >>$f
t0=$SECONDS; cmake --build build-cuda -j 16 >$R/rebuild.log 2>&1; echo "rebuild rc $? in $((SECONDS - t0)) s" >>$R/stdout.txt
sed -i '$ d' $f
$B info >$R/info-2.txt 2>&1
row run3
python3 - >$R/summary.txt <<'P'
import json
for r in ("run1", "run2", "run3"):
    d = json.load(open(f"/tmp/res/{r}.json"))
    t = d["tune_cache"]
    print(f"{r}: commit {d['commit']!r} tuned_now {t['tuned_now']} hits {t['hits']} "
          f"gflops {d['gflops']:.0f} of copy {d['fraction_of_copy']:.3f} back-to-back {d['back_to_back_fraction_of_copy']:.3f}")
P
grep -h "^gluon" $R/info-*.txt >>$R/summary.txt
rm -f $R/gpu/build.log $R/gpu/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
cat $R/stdout.txt; tail -3 $R/gpu/ctest-gpu.log; cat $R/summary.txt; head -3 $R/machine.txt
echo "total $SECONDS s"
