set -u
R=/tmp/h2; rm -rf $R; mkdir -p $R
( cmake --preset cpu > $R/configure.log 2>&1 && cmake --build build --target gluon -j16 > $R/build1.log 2>&1 && cp build/bin/gluon /tmp/gluon-new \
  && patch -R -p1 < .deps/half-trim.patch > $R/patch.log 2>&1 && cmake --build build --target gluon -j16 > $R/build2.log 2>&1 && cp build/bin/gluon /tmp/gluon-base \
  && patch -p1 < .deps/half-trim.patch >> $R/patch.log 2>&1 ) || { echo BUILD FAILED; tail -20 $R/*.log; }
echo "built at $SECONDS s"
lscpu > $R/lscpu.txt
BINS="base=/tmp/gluon-base new=/tmp/gluon-new" RUNS=2 OPS="wilson clover staggered improved-staggered" PRECS="half" RECONS="18 12" LATTICES=48,48,48,48 WAIT=2 ITER=30 OUT=$R/half timeout $((570-SECONDS)) bash bench/dslash-cpu.sh > $R/half.txt 2>&1
echo "all done at $SECONDS s"
cat $R/half/summary.txt
tar -czf $OUT/h2.tgz -C $R .
