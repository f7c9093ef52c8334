#!/usr/bin/env bash
# Trip 2 (the same warm machine): CGNR at 32^4, tol 1e-10, this tree (new) against the base, two
# rounds with the binaries' order swapped; JSON per solve in $OUT/solves.jsonl, a line each in
# $OUT/sum.txt. One tune cache a binary (their build keys differ).
S=$SECONDS
solve() {  # binary round operator sloppy
  local bin=$1 k=$2 op=$3 sp=$4 extra=""
  [ $op = clover ] && extra="--csw 1.0"
  GLUON_TUNE_CACHE=$OUT/tc-$bin.json timeout 100 build-cuda/ab/gluon-$bin bench solver --operator $op --solver cgnr --precision double \
    --sloppy-precision $sp --recon 12 --tol 1e-10 --lattice 32,32,32,32 --kappa 0.12 $extra --json > $OUT/s.json 2>$OUT/s.err || { echo "$bin $op $sp failed"; tail -3 $OUT/s.err; return; }
  python3 - $bin $k $op $sp <<PY | tee -a $OUT/sum.txt
import json, sys
d = json.load(open('$OUT/s.json')); d['binary'], d['round'] = sys.argv[1], sys.argv[2]
open('$OUT/solves.jsonl', 'a').write(json.dumps(d) + '\n')
print('%-4s r%s %-6s %-6s it %4d ru %2d res %.3e %7.2f ms %7.1f GFLOP/s %.3f of op' % (sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4],
      d['iterations'], d['reliable_updates'], d['true_residual'], 1000 * d['seconds'], d['gflops'], d['fraction_of_operator']))
PY
}
for k in 1 2; do
  for row in "wilson single" "wilson half" "clover single" "clover half" "wilson none"; do
    if [ $k = 1 ]; then solve new $k $row; solve base $k $row; else solve base $k $row; solve new $k $row; fi
  done
done
rm -f $OUT/s.json $OUT/s.err; echo "done $((SECONDS-S)) s"
