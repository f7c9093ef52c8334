set -u
R=/tmp/r8h; rm -rf $R; mkdir -p $R
( cmake --preset cpu > $R/configure.log 2>&1 && cmake --build build --target gluon -j16 > $R/build.log 2>&1 ) || { echo BUILD FAILED; tail -20 $R/*.log; }
echo "cpu built at $SECONDS s"
BINS="vec=build/bin/gluon" RUNS=2 OPS="wilson clover staggered" PRECS="half" RECONS="8 12" LATTICES=48,48,48,48 WAIT=2 ITER=30 OUT=$R/vec timeout 240 bash bench/dslash-cpu.sh > $R/vec.txt 2>&1
echo "vector rows at $SECONDS s"
for op in wilson staggered; do
  GLUON_CPU_SIMD=0 build/bin/gluon bench dslash --backend cpu --operator $op --precision half --recon 8 --lattice 32,32,32,32 --iterations 10 --json > $R/scalar-$op-half-r8.json 2>>$R/scalar.log
done
python3 - $R <<'PY'
import json,glob,sys
for f in sorted(glob.glob(sys.argv[1]+"/scalar-*.json")):
    d=json.load(open(f)); print(f.split('/')[-1], round(d['gflops'],1), round(d['fraction_of_copy'],3), d.get('field_order'))
PY
cat $R/vec/summary.txt
rm -f $R/build.log $R/configure.log
tar -czf $OUT/r8h.tgz -C $R .
